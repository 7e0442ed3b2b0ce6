// The text encoding of H.248.1 (Megaco), Annex B, protocol versions 1 to 3,
// pretty and compact alike: one grammar, the union of the ABNF of RFC 3525
// (v1), draft-ietf-megaco-h248v2-04 (v2) and the v3 ABNF. Rules carry the
// ABNF's names and follow its order; where this grammar departs from the
// ABNF a comment says why. goyacc turns it into grammar_gen.go (see
// generate.go).
//
// How the pieces fit:
//
//   - The scanner (scan.go) hands out one token per ABNF terminal: the
//     keywords in their long and short spellings, punctuation, SafeChars
//     words, quoted strings, and, where the ABNF has bytes that are not
//     tokens (SDP inside Local/Remote, digit map bodies, addresses in an
//     mId), one token for the whole piece. White space and comments never
//     reach the parser.
//   - A SafeChars word is read as a whole, so "al/of", "11111111/00000000",
//     "19990729T22000000", "nt-1", "9-13" and "8989/1/END" arrive as one
//     token; the builder takes them apart.
//   - Keywords are names too where a name may stand ("Add" is the AddToken
//     or a NAME depending on the context, says Annex B): termination IDs,
//     values and parameter names accept the keywords that cannot start
//     anything else at that place (termKeyword, paramKeyword, anyKeyword).
//   - Actions call the builder (decode_*.go). A rule leaves what it built on
//     the builder's stacks and passes a count or a small code in $$; the
//     rule that uses it takes it from there. A rule that has the pieces of
//     a model value builds it.

%{
package text

import "megaco/internal/model"
%}

// goyacc's %union is a struct: a rule typed <n> still has in $<tok>$ the
// tok of its first symbol (yacc's default $$ = $1), which gives an error a
// place.
%union {
	tok span // the bytes of a terminal, or of the name a rule passes on
	n   int  // how many items a rule left on the builder's stacks, or a code
}

// Terminals start in lower case so that the constants goyacc makes of them
// stay unexported; the keywords keep the names of their ABNF rules
// (AddToken is addToken).

// Scanner-made terminals.
%token <tok> safeChars     // 1*(SafeChar): names, numbers, IDs, values
%token <tok> quotedString  // DQUOTE ... DQUOTE, the bytes between the quotes
%token <tok> octetString   // the SDP between Local { and }
%token <tok> digitMapTimer // "T:1" in a digitMapValue
%token <tok> digitMapBody  // the digitMap after the timers
%token <tok> versionHeader // MegacopToken SLASH Version
%token <tok> ipv4Token     // "[" IPv4address "]" [":" portNumber] in an mId
%token <tok> ipv6Token     // "[" IPv6address "]" [":" portNumber] in an mId
%token <tok> domainToken   // "<" name ">" [":" portNumber] in an mId
%token <tok> optionalPrefix wildcardPrefix // "O-", "W-" before a command
%token <tok> lexError      // not a token: the scanner failed

// Keywords (Annex B "...Token" rules), long or short.
%token <tok> addToken andAUDITSelectToken auditCapToken auditToken
%token <tok> auditValueToken authToken bothToken bothwayToken briefToken
%token <tok> bufferToken contextAttrToken contextAuditToken contextListToken
%token <tok> ctxToken delayToken digitMapToken directionToken
%token <tok> disconnectedToken durationToken embedToken emergencyOffToken
%token <tok> emergencyToken emergencyValueToken errorToken eventBufferToken
%token <tok> eventsToken externalToken failoverToken forcedToken
%token <tok> gracefulToken h221Token h223Token h226Token handOffToken
%token <tok> iepsToken immAckRequiredToken inactiveToken inSvcToken
%token <tok> internalToken interruptByEventToken
%token <tok> interruptByNewSignalsDescrToken intsigDelayToken isolateToken
%token <tok> iterationToken keepActiveToken localControlToken localToken
%token <tok> lockStepToken loopbackToken mediaToken messageSegmentToken
%token <tok> methodToken mgcIdToken modemToken modeToken modifyToken
%token <tok> moveToken mtpToken muxToken neverNotifyToken
%token <tok> notifyCompletionToken notifyImmediateToken notifyRegulatedToken
%token <tok> notifyToken nx64kToken observedEventsToken onewayBothToken
%token <tok> onewayExternalToken onewayToken onOffToken orAUDITselectToken
%token <tok> otherReasonToken outOfSvcToken packagesToken pendingToken
%token <tok> priorityToken profileToken reasonToken recvonlyToken
%token <tok> remoteToken replyToken requestIDToken reservedGroupToken
%token <tok> reservedValueToken resetEventsDescriptorToken responseAckToken
%token <tok> restartToken sendonlyToken sendrecvToken
%token <tok> serviceChangeAddressToken serviceChangeIncompleteToken
%token <tok> serviceChangeToken serviceStatesToken servicesToken
%token <tok> signalListToken signalsToken signalTypeToken statsToken
%token <tok> streamToken subtractToken synchISDNToken terminationStateToken
%token <tok> testToken timeOutToken topologyToken transToken v18Token
%token <tok> v22bisToken v22Token v32bisToken v32Token v34Token v76Token
%token <tok> v90Token v91Token versionToken

%type <tok> value eventParameterName digitMapName
%type <tok> priority iepsValue eventStream
%type <tok> termKeyword termKeywordNoCtx paramKeyword anyKeyword keywordName mId

%type <n> transactionList transactionAckList actionRequestList
%type <n> actionRequestItems contextIdList
%type <n> transactionReplyBody actionReplyList actionReplyBody
%type <n> actionReplyItems
%type <n> contextAuditItems contextAuditItem contextIDs packagesDescriptor
%type <n> topologyItems topologyDirection topologyDirectionExtension
%type <n> termIDList terminationIDs terminationIDList auditTermIDList
%type <n> ammToken ammsToken auditCommandToken ammParameterList terminationAudit
%type <n> auditReturnItem auditItemList
%type <n> indAudmediaParms indAudstreamParms indAudlocalParms
%type <n> indAudterminationStateParms indAudsignalRequestParms
%type <n> mediaParmList streamParmList localParmList streamModes
%type <n> terminationStateParmList serviceStatesValue
%type <n> eventBufferControlValue muxType modemTypeList modemType
%type <n> modemProperties propertyParmList parmValue alternativeValue
%type <n> valueList eventBufferDescriptor eventSpecList
%type <n> eventSpecParameterList requestedEventList eventParameterList
%type <n> secondRequestedEventList secondEventParameterList
%type <n> signalsDescriptor signalParmList signalListParmList
%type <n> sigParameterList signalType direction notificationReasons
%type <n> notificationReason observedEventList observedEventParameterList
%type <n> digitMapTimers serviceChangeParmList
%type <n> servChgReplyParmList serviceChangeMethodValue packagesItemList
%type <n> statisticsDescriptor statisticsParameterList

%%

// megacoMessage = LWSP [authenticationHeader SEP] message
// (message's alternatives written out for the message without an
// authentication header: one reduction less.)
megacoMessage:
	versionHeader mId errorDescriptor
	{ bld(yylex).messageError(); bld(yylex).message() }
|	versionHeader mId transactionList
	{ bld(yylex).transactions($3); bld(yylex).message() }
|	authenticationHeader message

// authenticationHeader = AuthToken EQUAL SecurityParmIndex COLON
//                        SequenceNum COLON AuthData
authenticationHeader:
	authToken '=' safeChars ':' safeChars ':' safeChars
	{ bld(yylex).authenticationHeader($3, $5, $7) }

// message = MegacopToken SLASH Version SEP mId SEP messageBody
// messageBody = (errorDescriptor / transactionList), written out here: a
// rule of its own cost the parser a reduction for every message.
message:
	versionHeader mId errorDescriptor
	{ bld(yylex).messageError(); bld(yylex).message() }
|	versionHeader mId transactionList
	{ bld(yylex).transactions($3); bld(yylex).message() }

// The most frequent transactions, requests and replies, stand here rather
// than in transaction: one reduction less each.
// A transaction request is written out: one reduction less again.
transactionList:
	transaction                        { $$ = 1 }
|	transToken '=' safeChars '{' actionRequestList '}'
	{ bld(yylex).transactionRequest($3, $5); $$ = 1 }
|	transactionReply                   { $$ = 1 }
|	transactionList transaction        { $$ = $1 + 1 }
|	transactionList transToken '=' safeChars '{' actionRequestList '}'
	{ bld(yylex).transactionRequest($4, $6); $$ = $1 + 1 }
|	transactionList transactionReply   { $$ = $1 + 1 }

transaction:
	transactionPending
|	transactionResponseAck
|	segmentReply

// TransactionID = UINT32; with the v3 segment information
// (TransactionID SLASH segmentNumber [SLASH SegmentationCompleteToken])
// it is one SafeChars word, "8989/1/END".
// The most frequent reply body, the action replies without
// ImmAckRequired, is written out here: one reduction less per reply.
transactionReply:
	replyToken '=' safeChars '{' transactionReplyBody '}'
	{ bld(yylex).transactionReply($3, $5) }
|	replyToken '=' safeChars '{' actionReplyList '}'
	{ bld(yylex).transactionReply($3, $5<<replyShift) }

transactionReplyBody:
	errorDescriptor                             { $$ = replyError }
|	immAckRequiredToken ',' errorDescriptor     { $$ = replyError | replyImmAck }
|	immAckRequiredToken ',' actionReplyList     { $$ = $3<<replyShift | replyImmAck }

transactionPending:
	pendingToken '=' safeChars '{' '}'
	{ bld(yylex).transactionPending($3) }

transactionResponseAck:
	responseAckToken '{' transactionAckList '}'
	{ bld(yylex).transactionResponseAck($3) }

// transactionAck = TransactionID / (TransactionID "-" TransactionID),
// one SafeChars word: written out here, one reduction less per ack.
transactionAckList:
	safeChars                        { bld(yylex).transactionAck($1); $$ = 1 }
|	transactionAckList ',' safeChars { bld(yylex).transactionAck($3); $$ = $1 + 1 }

// segmentReply = MessageSegmentToken EQUAL TransactionID SLASH
//                segmentNumber [SLASH SegmentationCompleteToken]
segmentReply:
	messageSegmentToken '=' safeChars { bld(yylex).segmentReply($1, $3) }

// actionRequest = CtxToken EQUAL ContextID LBRKT ((contextRequest
//                 [COMMA commandRequestList]) / commandRequestList) RBRKT
// The context properties, the context audit and the commands are taken in
// any order: the binary form keeps them in separate fields anyway.
// actionRequest is written out in the list: one reduction less per action.
actionRequestList:
	ctxToken '=' safeChars '{' actionRequestItems '}'
	{ bld(yylex).actionRequest($3, $5); $$ = 1 }
|	actionRequestList ',' ctxToken '=' safeChars '{' actionRequestItems '}'
	{ bld(yylex).actionRequest($5, $7); $$ = $1 + 1 }

// The most frequent items, a context property and a command without
// prefixes (each kind of command written out, notify's rules too), stand
// here rather than in actionRequestItem: one or two reductions less each.
actionRequestItems:
	actionRequestItem                             { $$ = 1 }
|	contextProperty                               { $$ = 1 }
|	ammRequest                                    { bld(yylex).commandRequest(0); $$ = 1 }
|	subtractRequest                               { bld(yylex).commandRequest(0); $$ = 1 }
|	auditRequest                                  { bld(yylex).commandRequest(0); $$ = 1 }
|	serviceChangeRequest                          { bld(yylex).commandRequest(0); $$ = 1 }
|	notifyToken '=' termIDList '{' observedEventsToken '=' safeChars '{' observedEventList '}' '}'
	{ bld(yylex).observedEvents($7, $9); bld(yylex).notifyRequest($3, false); bld(yylex).commandRequest(0); $$ = 1 }
|	notifyToken '=' termIDList '{' observedEventsDescriptor ',' errorDescriptor '}'
	{ bld(yylex).notifyRequest($3, true); bld(yylex).commandRequest(0); $$ = 1 }
|	actionRequestItems ',' actionRequestItem      { $$ = $1 + 1 }
|	actionRequestItems ',' contextProperty        { $$ = $1 + 1 }
|	actionRequestItems ',' ammRequest             { bld(yylex).commandRequest(0); $$ = $1 + 1 }
|	actionRequestItems ',' subtractRequest        { bld(yylex).commandRequest(0); $$ = $1 + 1 }
|	actionRequestItems ',' auditRequest           { bld(yylex).commandRequest(0); $$ = $1 + 1 }
|	actionRequestItems ',' serviceChangeRequest   { bld(yylex).commandRequest(0); $$ = $1 + 1 }
|	actionRequestItems ',' notifyToken '=' termIDList '{' observedEventsToken '=' safeChars '{' observedEventList '}' '}'
	{ bld(yylex).observedEvents($9, $11); bld(yylex).notifyRequest($5, false); bld(yylex).commandRequest(0); $$ = $1 + 1 }
|	actionRequestItems ',' notifyToken '=' termIDList '{' observedEventsDescriptor ',' errorDescriptor '}'
	{ bld(yylex).notifyRequest($5, true); bld(yylex).commandRequest(0); $$ = $1 + 1 }

// commandRequestList = ["O-"] ["W-"] commandRequest
//                      *(COMMA ["O-"] ["W-"] commandRequest)
actionRequestItem:
	contextAudit
|	optionalPrefix commandRequest                { bld(yylex).commandRequest(prefixOptional) }
|	wildcardPrefix commandRequest                { bld(yylex).commandRequest(prefixWildcard) }
|	optionalPrefix wildcardPrefix commandRequest { bld(yylex).commandRequest(prefixOptional | prefixWildcard) }

// commandRequest = (ammRequest / subtractRequest / auditRequest /
//                   notifyRequest / serviceChangeRequest); notifyRequest,
// the most frequent, is written out where a command goes without a
// prefix (actionRequestItems): one reduction less.
commandRequest:
	commandRequestNoNotify
|	notifyRequest

commandRequestNoNotify:
	ammRequest
|	subtractRequest
|	auditRequest
|	serviceChangeRequest

// contextProperty = (topologyDescriptor / priority / EmergencyToken /
//                    EmergencyOffToken / iepsValue / contextAttrDescriptor)
contextProperty:
	topologyDescriptor
|	priorityToken '=' safeChars { bld(yylex).param(pPriority, $3, 0) } // priority written out
|	emergencyToken          { bld(yylex).param(pEmergency, $1, 1) }
|	emergencyOffToken       { bld(yylex).param(pEmergency, $1, 0) }
|	iepsValue               { bld(yylex).param(pIEPS, $1, 0) }
|	contextAttrDescriptor

// contextAudit = ContextAuditToken LBRKT (contextAuditProperties
//                *(COMMA contextAuditProperties)) /
//                indAudcontextAttrDescriptor RBRKT
contextAudit:
	contextAuditToken '{' contextAuditItems '}'
	{ bld(yylex).contextAudit($1, $3) }

contextAuditItems:
	contextAuditItem                       { $$ = $1 }
|	contextAuditItems ',' contextAuditItem { $$ = $1 + $3 }

// contextAuditProperties = (TopologyToken / EmergencyToken / PriorityToken /
//                           IEPSToken / pkgdName / contextAuditSelector)
// contextAuditSelector = priority / emergencyValue / iepsValue /
//                        contextAttrDescriptor / auditSelectLogic
// A ContextAttr inside holds more of the same (indAudcontextAttrDescriptor)
// or, as a selector, property values (contextAttrDescriptor).
contextAuditItem:
	topologyToken        { bld(yylex).param(pAuditTopology, $1, 0); $$ = 1 }
|	emergencyToken       { bld(yylex).param(pAuditEmergency, $1, 0); $$ = 1 }
|	priorityToken        { bld(yylex).param(pAuditPriority, $1, 0); $$ = 1 }
|	iepsToken            { bld(yylex).param(pAuditIEPS, $1, 0); $$ = 1 }
|	safeChars            { bld(yylex).param(pAuditName, $1, 0); $$ = 1 }
|	propertyParm         { bld(yylex).param(pProperty, span{}, 0); $$ = 1 }
|	priority             { bld(yylex).param(pPriority, $1, 0); $$ = 1 }
|	emergencyValue       { $$ = 1 }
|	iepsValue            { bld(yylex).param(pIEPS, $1, 0); $$ = 1 }
|	andAUDITSelectToken  { bld(yylex).param(pSelectLogic, $1, uint32(model.SelectLogic_AndAUDITSelect)); $$ = 1 }
|	orAUDITselectToken   { bld(yylex).param(pSelectLogic, $1, uint32(model.SelectLogic_OrAUDITSelect)); $$ = 1 }
|	contextAttrToken '{' contextAuditItems '}' { bld(yylex).need(3, $1, "ContextAttr"); $$ = $3 }
|	contextAttrToken '{' contextIdList '}'     { bld(yylex).contextListInAudit($1, $3); $$ = 1 }

// emergencyValue = EmergencyValueToken EQUAL (EmergencyToken /
//                  EmergencyOffToken)
emergencyValue:
	emergencyValueToken '=' emergencyToken    { bld(yylex).need(3, $1, "EmergencyValue"); bld(yylex).param(pSelectEmergency, $1, 1) }
|	emergencyValueToken '=' emergencyOffToken { bld(yylex).need(3, $1, "EmergencyValue"); bld(yylex).param(pSelectEmergency, $1, 0) }

// priority = PriorityToken EQUAL UINT16
priority:
	priorityToken '=' safeChars { $$ = $3 }

// iepsValue = IEPSToken EQUAL ("ON" / "OFF")
iepsValue:
	iepsToken '=' safeChars { bld(yylex).need(3, $1, "IEPSCall"); $$ = $3 }

// contextAttrDescriptor = ContextAttrToken LBRKT (contextIdList /
//                         propertyParm *(COMMA propertyParm)) RBRKT
contextAttrDescriptor:
	contextAttrToken '{' propertyParmList '}'
	{ bld(yylex).param(pContextProps, $1, uint32($3)) }
|	contextAttrToken '{' contextIdList '}'
	{ bld(yylex).param(pContextList, $1, uint32($3)) }

// contextIdList = ContextListToken EQUAL LBRKT ContextID *(COMMA ContextID)
//                 RBRKT
contextIdList:
	contextListToken '=' '{' contextIDs '}' { $$ = $4 }

contextIDs:
	safeChars                { bld(yylex).contextID($1); $$ = 1 }
|	contextIDs ',' safeChars { bld(yylex).contextID($3); $$ = $1 + 1 }

// topologyDescriptor = TopologyToken LBRKT topologyTriple
//                      *(COMMA topologyTriple) RBRKT
// topologyTriple = terminationA COMMA terminationB COMMA
//                  topologyDirection [COMMA eventStream]
// Erlang/OTP writes the v3 direction extension as a token of its own after
// the direction ("..., Oneway, OnewayBoth"); both forms are read.
topologyDescriptor:
	topologyToken '{' topologyItems '}'
	{ bld(yylex).param(pTopology, $1, uint32($3)) }

topologyItems:
	topologyTriple                                 { $$ = 1 }
|	topologyItems ',' topologyTriple               { $$ = $1 + 1 }
|	topologyItems ',' eventStream                  { bld(yylex).topologyStream($3); $$ = $1 }
|	topologyItems ',' topologyDirectionExtension   { bld(yylex).topologyExtension($3); $$ = $1 }

// TerminationID's alternatives written out: two reductions less per triple.
topologyTriple:
	safeChars ',' safeChars ',' topologyDirection
	{ bld(yylex).topologyTriple($1, $3, $5) }
|	safeChars ',' termKeyword ',' topologyDirection
	{ bld(yylex).topologyTriple($1, $3, $5) }
|	termKeyword ',' safeChars ',' topologyDirection
	{ bld(yylex).topologyTriple($1, $3, $5) }
|	termKeyword ',' termKeyword ',' topologyDirection
	{ bld(yylex).topologyTriple($1, $3, $5) }

topologyDirection:
	bothwayToken               { $$ = int(model.TopologyRequestTopologyDirection_Bothway) }
|	isolateToken               { $$ = int(model.TopologyRequestTopologyDirection_Isolate) }
|	onewayToken                { $$ = int(model.TopologyRequestTopologyDirection_Oneway) }
|	topologyDirectionExtension { $$ = $1 }

topologyDirectionExtension:
	onewayExternalToken { bld(yylex).need(3, $1, "OnewayExternal"); $$ = directionExternal }
|	onewayBothToken     { bld(yylex).need(3, $1, "OnewayBoth"); $$ = directionBoth }

// actionReplyList = actionReply *(COMMA actionReply)
actionReplyList:
	actionReply                     { $$ = 1 }
|	actionReplyList ',' actionReply { $$ = $1 + 1 }

// actionReply = CtxToken EQUAL ContextID [LBRKT (errorDescriptor /
//               commandReply / (commandReply COMMA errorDescriptor)) RBRKT]
// commandReply = ((contextProperties [COMMA commandReplyList]) /
//                commandReplyList)
actionReply:
	ctxToken '=' safeChars                         { bld(yylex).need(3, $1, "an action reply without braces (Context = ID alone)"); bld(yylex).actionReply($3, 0) }
|	ctxToken '=' safeChars '{' actionReplyBody '}' { bld(yylex).actionReply($3, $5) }

actionReplyBody:
	errorDescriptor                          { $$ = replyError }
|	actionReplyItems                         { $$ = $1 << replyShift }
|	actionReplyItems ',' errorDescriptor     { $$ = $1<<replyShift | replyError }

// commandReplys = (serviceChangeReply / auditReply / ammsReply /
//                  notifyReply)
// The items, context properties and the command replies, written out
// (no rules actionReplyItem and commandReply): two reductions less per
// command reply.
actionReplyItems:
	contextProperty                         { $$ = 1 }
|	serviceChangeReply                      { bld(yylex).param(pCommand, span{}, 0); $$ = 1 }
|	auditReply                              { bld(yylex).param(pCommand, span{}, 0); $$ = 1 }
|	ammsReply                               { bld(yylex).param(pCommand, span{}, 0); $$ = 1 }
|	notifyReply                             { bld(yylex).param(pCommand, span{}, 0); $$ = 1 }
|	actionReplyItems ',' contextProperty    { $$ = $1 + 1 }
|	actionReplyItems ',' serviceChangeReply { bld(yylex).param(pCommand, span{}, 0); $$ = $1 + 1 }
|	actionReplyItems ',' auditReply         { bld(yylex).param(pCommand, span{}, 0); $$ = $1 + 1 }
|	actionReplyItems ',' ammsReply          { bld(yylex).param(pCommand, span{}, 0); $$ = $1 + 1 }
|	actionReplyItems ',' notifyReply        { bld(yylex).param(pCommand, span{}, 0); $$ = $1 + 1 }

// ammRequest = (AddToken / MoveToken / ModifyToken) EQUAL termIDList
//              [LBRKT ammParameter *(COMMA ammParameter) RBRKT]
ammRequest:
	ammToken '=' termIDList
	{ bld(yylex).ammRequest($<tok>1, $1, $3, 0) }
|	ammToken '=' termIDList '{' ammParameterList '}'
	{ bld(yylex).ammRequest($<tok>1, $1, $3, $5) }

ammToken:
	addToken    { $$ = int(model.Command_AddReq) }
|	moveToken   { $$ = int(model.Command_MoveReq) }
|	modifyToken { $$ = int(model.Command_ModReq) }

ammParameterList:
	ammParameter                      { $$ = 1 }
|	ammParameterList ',' ammParameter { $$ = $1 + 1 }

ammParameter:
	mediaDescriptor       { bld(yylex).ammDescriptor(model.AmmDescriptor_MediaDescriptor, 0) }
|	modemDescriptor       { bld(yylex).ammDescriptor(model.AmmDescriptor_ModemDescriptor, 0) }
|	muxDescriptor         { bld(yylex).ammDescriptor(model.AmmDescriptor_MuxDescriptor, 0) }
|	eventsDescriptor      { bld(yylex).ammDescriptor(model.AmmDescriptor_EventsDescriptor, 0) }
|	signalsDescriptor     { bld(yylex).ammDescriptor(model.AmmDescriptor_SignalsDescriptor, $1) }
|	digitMapDescriptor    { bld(yylex).ammDescriptor(model.AmmDescriptor_DigitMapDescriptor, 0) }
|	eventBufferDescriptor { bld(yylex).ammDescriptor(model.AmmDescriptor_EventBufferDescriptor, $1) }
|	auditDescriptor       { bld(yylex).ammDescriptor(model.AmmDescriptor_AuditDescriptor, 0) }
|	statisticsDescriptor  { bld(yylex).need(3, $<tok>1, "a Statistics descriptor in a command"); bld(yylex).ammDescriptor(model.AmmDescriptor_StatisticsDescriptor, $1) }
|	statsToken            { bld(yylex).need(3, $1, "a Statistics descriptor in a command"); bld(yylex).ammDescriptor(model.AmmDescriptor_StatisticsDescriptor, 0) }

// ammsReply = (AddToken / MoveToken / ModifyToken / SubtractToken) EQUAL
//             termIDList [LBRKT terminationAudit RBRKT]
ammsReply:
	ammsToken '=' termIDList                          { bld(yylex).ammsReply($1, $3, -1) }
|	ammsToken '=' termIDList '{' terminationAudit '}' { bld(yylex).ammsReply($1, $3, $5) }

ammsToken:
	addToken      { $$ = int(model.CommandReply_AddReply) }
|	moveToken     { $$ = int(model.CommandReply_MoveReply) }
|	modifyToken   { $$ = int(model.CommandReply_ModReply) }
|	subtractToken { $$ = int(model.CommandReply_SubtractReply) }

// subtractRequest = SubtractToken EQUAL termIDList [LBRKT auditDescriptor
//                   RBRKT]
subtractRequest:
	subtractToken '=' termIDList                         { bld(yylex).subtractRequest($3, false) }
|	subtractToken '=' termIDList '{' auditDescriptor '}' { bld(yylex).subtractRequest($3, true) }

// auditRequest = (AuditValueToken / AuditCapToken) EQUAL termIDList LBRKT
//                auditDescriptor RBRKT
// The two audit commands written out: one reduction less each.
auditRequest:
	auditValueToken '=' termIDList '{' auditDescriptor '}'
	{ bld(yylex).auditRequest(auditValue, $3) }
|	auditCapToken '=' termIDList '{' auditDescriptor '}'
	{ bld(yylex).auditRequest(auditCap, $3) }

auditCommandToken:
	auditValueToken { $$ = auditValue }
|	auditCapToken   { $$ = auditCap }

// auditReply = (AuditValueToken / AuditCapToken) (contextTerminationAudit /
//              auditOther)
// contextTerminationAudit = EQUAL CtxToken (terminationIDList / LBRKT
//                           errorDescriptor RBRKT)
// auditOther = EQUAL termIDList [LBRKT terminationAudit RBRKT]
// (A termination ID named like CtxToken cannot stand first here.)
auditReply:
	auditCommandToken '=' ctxToken terminationIDList                { bld(yylex).contextAuditResult($1, $4) }
|	auditCommandToken '=' ctxToken '{' errorDescriptor '}'          { bld(yylex).auditReplyError($1) }
|	auditCommandToken '=' auditTermIDList                           { bld(yylex).auditResult($1, $3, 0) }
|	auditCommandToken '=' auditTermIDList '{' terminationAudit '}'  { bld(yylex).auditResult($1, $3, $5) }

auditTermIDList:
	safeChars               { bld(yylex).terminationID($1); $$ = 1 << 1 }
|	termKeywordNoCtx        { bld(yylex).terminationID($1); $$ = 1 << 1 }
|	'[' terminationIDs ']'  { bld(yylex).need(3, $<tok>1, "a list of termination IDs"); $$ = $2<<1 | 1 }

terminationAudit:
	auditReturnParameter                      { $$ = 1 }
|	terminationAudit ',' auditReturnParameter { $$ = $1 + 1 }

// A bare descriptor name is an auditReturnItem; Events, Signals and
// EventBuffer without a body are empty descriptors (Implementors' Guide
// and the v3 ABNF; the v1 ABNF has them as auditItems as well).
auditReturnParameter:
	mediaDescriptor          { bld(yylex).auditReturn(model.AuditReturnParameter_MediaDescriptor, 0) }
|	modemDescriptor          { bld(yylex).auditReturn(model.AuditReturnParameter_ModemDescriptor, 0) }
|	muxDescriptor            { bld(yylex).auditReturn(model.AuditReturnParameter_MuxDescriptor, 0) }
|	eventsDescriptor         { bld(yylex).auditReturn(model.AuditReturnParameter_EventsDescriptor, 0) }
|	signalsDescriptor        { bld(yylex).auditReturn(model.AuditReturnParameter_SignalsDescriptor, $1) }
|	digitMapDescriptor       { bld(yylex).auditReturn(model.AuditReturnParameter_DigitMapDescriptor, 0) }
|	observedEventsDescriptor { bld(yylex).auditReturn(model.AuditReturnParameter_ObservedEventsDescriptor, 0) }
|	eventBufferDescriptor    { bld(yylex).auditReturn(model.AuditReturnParameter_EventBufferDescriptor, $1) }
|	statisticsDescriptor     { bld(yylex).auditReturn(model.AuditReturnParameter_StatisticsDescriptor, $1) }
|	packagesDescriptor       { bld(yylex).auditReturn(model.AuditReturnParameter_PackagesDescriptor, $1) }
|	errorDescriptor          { bld(yylex).auditReturn(model.AuditReturnParameter_ErrorDescriptor, 0) }
|	auditReturnItem          { bld(yylex).auditReturnItem($1) }

// auditReturnItem = (MuxToken / ModemToken / MediaToken / DigitMapToken /
//                    StatsToken / ObservedEventsToken / PackagesToken)
// $$ is the bit of the audit token (AuditDescriptor.auditToken).
auditReturnItem:
	muxToken            { $$ = auditMux }
|	modemToken          { $$ = auditModem }
|	mediaToken          { $$ = auditMedia }
|	digitMapToken       { $$ = auditDigitMap }
|	statsToken          { $$ = auditStatistics }
|	observedEventsToken { $$ = auditObservedEvents }
|	packagesToken       { $$ = auditPackages }

// auditDescriptor = AuditToken LBRKT [auditItem *(COMMA auditItem)] RBRKT
auditDescriptor:
	auditToken '{' '}'               { bld(yylex).auditDescriptor($1, 0) }
|	auditToken '{' auditItemList '}' { bld(yylex).auditDescriptor($1, $3) }

auditItemList:
	auditItem                   { $$ = 1 }
|	auditItemList ',' auditItem { $$ = $1 + 1 }

// auditItem = auditReturnItem / SignalsToken / EventBufferToken /
//             EventsToken / indAudterminationAudit (v2 and later)
// Each leaves one parameter for auditDescriptor or serviceChangeParm.
auditItem:
	auditReturnItem            { bld(yylex).param(pAuditToken, $<tok>1, uint32($1)) }
|	signalsToken               { bld(yylex).param(pAuditToken, $1, auditSignals) }
|	signalsToken '{' '}'       { bld(yylex).param(pAuditToken, $1, auditSignals) }
|	eventBufferToken           { bld(yylex).param(pAuditToken, $1, auditEventBuffer) }
|	eventsToken                { bld(yylex).param(pAuditToken, $1, auditEvents) }
|	indAudauditReturnParameter { bld(yylex).param(pIndAud, $<tok>1, 0) }

// indAudauditReturnParameter = indAudmediaDescriptor /
//   indAudeventsDescriptor / indAudsignalsDescriptor /
//   indAuddigitMapDescriptor / indAudeventBufferDescriptor /
//   indAudstatisticsDescriptor / indAudpackagesDescriptor
indAudauditReturnParameter:
	indAudmediaDescriptor       { bld(yylex).indAud(model.IndAuditParameter_IndAudMediaDescriptor) }
|	indAudeventsDescriptor      { bld(yylex).indAud(model.IndAuditParameter_IndAudEventsDescriptor) }
|	indAudsignalsDescriptor     { bld(yylex).indAud(model.IndAuditParameter_IndAudSignalsDescriptor) }
|	indAuddigitMapDescriptor    { bld(yylex).indAud(model.IndAuditParameter_IndAudDigitMapDescriptor) }
|	indAudeventBufferDescriptor { bld(yylex).indAud(model.IndAuditParameter_IndAudEventBufferDescriptor) }
|	indAudstatisticsDescriptor  { bld(yylex).indAud(model.IndAuditParameter_IndAudStatisticsDescriptor) }
|	indAudpackagesDescriptor    { bld(yylex).indAud(model.IndAuditParameter_IndAudPackagesDescriptor) }

// indAudmediaDescriptor = MediaToken LBRKT indAudmediaParm
//                         *(COMMA indAudmediaParm) RBRKT
indAudmediaDescriptor:
	mediaToken '{' indAudmediaParms '}' { bld(yylex).indAudMedia($1, $3) }

indAudmediaParms:
	indAudmediaParm                      { $$ = 1 }
|	indAudmediaParms ',' indAudmediaParm { $$ = $1 + 1 }

// indAudmediaParm = indAudstreamParm / indAudstreamDescriptor /
//                   indAudterminationStateDescriptor
indAudmediaParm:
	indAudstreamParm
|	indAudstreamDescriptor           { bld(yylex).param(pStreamDescriptor, span{}, 0) }
|	indAudterminationStateDescriptor { bld(yylex).param(pTerminationState, $<tok>1, 0) }

// indAudstreamParm = (indAudlocalControlDescriptor /
//   indAudstatisticsDescriptor / indAudremoteDescriptor /
//   indAudlocalDescriptor)
indAudstreamParm:
	indAudlocalControlDescriptor { bld(yylex).param(pLocalControl, $<tok>1, 0) }
|	indAudstatisticsDescriptor   { bld(yylex).need(3, $<tok>1, "a Statistics audit in a stream"); bld(yylex).param(pIndAudStatistics, $<tok>1, 0) }
|	remoteToken '{' octetString '}' { bld(yylex).indAudLocalRemote($1, $3, pRemote) }
|	localToken '{' octetString '}'  { bld(yylex).indAudLocalRemote($1, $3, pLocal) }

// indAudstreamDescriptor = StreamToken EQUAL StreamID LBRKT
//                          indAudstreamParm RBRKT
// (more than one indAudstreamParm is read, as in a streamDescriptor)
indAudstreamDescriptor:
	streamToken '=' safeChars '{' indAudstreamParms '}'
	{ bld(yylex).indAudStream($3, $5) }

indAudstreamParms:
	indAudstreamParm                       { $$ = 1 }
|	indAudstreamParms ',' indAudstreamParm { $$ = $1 + 1 }

// indAudlocalControlDescriptor = LocalControlToken LBRKT indAudlocalParm
//                                *(COMMA indAudlocalParm) RBRKT
indAudlocalControlDescriptor:
	localControlToken '{' indAudlocalParms '}' { bld(yylex).indAudLocalControl($1, $3) }

indAudlocalParms:
	indAudlocalParm                      { $$ = 1 }
|	indAudlocalParms ',' indAudlocalParm { $$ = $1 + 1 }

// indAudlocalParm = ModeToken [(EQUAL/INEQUAL) streamModes] / pkgdName /
//                   propertyParm / ReservedValueToken / ReservedGroupToken
indAudlocalParm:
	modeToken                     { bld(yylex).param(pAuditMode, $1, 0) }
|	modeToken '=' streamModes     { bld(yylex).param(pMode, $1, uint32($3)) }
|	modeToken inequal streamModes { bld(yylex).noInequality($1, "Mode") }
|	safeChars                     { bld(yylex).param(pAuditName, $1, 0) }
|	propertyParm                  { bld(yylex).param(pProperty, span{}, 0) }
|	reservedValueToken            { bld(yylex).param(pAuditReserveValue, $1, 0) }
|	reservedGroupToken            { bld(yylex).param(pAuditReserveGroup, $1, 0) }

inequal:
	'>'
|	'<'
|	'#'

// indAudterminationStateDescriptor = TerminationStateToken LBRKT
//                                    indAudterminationStateParm RBRKT
// (a list is read, as in a terminationStateDescriptor)
indAudterminationStateDescriptor:
	terminationStateToken '{' indAudterminationStateParms '}'
	{ bld(yylex).indAudTerminationState($1, $3) }

indAudterminationStateParms:
	indAudterminationStateParm                                 { $$ = 1 }
|	indAudterminationStateParms ',' indAudterminationStateParm { $$ = $1 + 1 }

// indAudterminationStateParm = pkgdName / propertyParm /
//   ServiceStatesToken [(EQUAL/INEQUAL) serviceStatesValue] / BufferToken
indAudterminationStateParm:
	safeChars                                      { bld(yylex).param(pAuditName, $1, 0) }
|	propertyParm                                   { bld(yylex).param(pProperty, span{}, 0) }
|	serviceStatesToken                             { bld(yylex).param(pAuditServiceState, $1, 0) }
|	serviceStatesToken '=' serviceStatesValue      { bld(yylex).param(pServiceState, $1, uint32($3)) }
|	serviceStatesToken inequal serviceStatesValue  { bld(yylex).noInequality($1, "ServiceStates") }
|	bufferToken                                    { bld(yylex).param(pAuditBuffer, $1, 0) }

// indAudeventBufferDescriptor = EventBufferToken LBRKT indAudeventSpec RBRKT
// indAudeventSpec = pkgdName [LBRKT indAudeventSpecParameter RBRKT]
// indAudeventSpecParameter = eventStream / eventParameterName
indAudeventBufferDescriptor:
	eventBufferToken '{' safeChars '}'
	{ bld(yylex).indAudEventBuffer($3, span{}) }
|	eventBufferToken '{' safeChars '{' eventStream '}' '}'
	{ bld(yylex).indAudEventBuffer($3, $5) }
|	eventBufferToken '{' safeChars '{' eventParameterName '}' '}'
	{ bld(yylex).noModelField($5, "an event parameter name in an EventBuffer audit"); bld(yylex).indAudEventBuffer($3, span{}) }

// indAudeventsDescriptor = EventsToken [EQUAL RequestID] LBRKT
//                          indAudrequestedEvent RBRKT
indAudeventsDescriptor:
	eventsToken '{' safeChars '}'              { bld(yylex).indAudEvents(span{}, $3) }
|	eventsToken '=' safeChars '{' safeChars '}' { bld(yylex).indAudEvents($3, $5) }

// indAudsignalsDescriptor = SignalsToken LBRKT [indAudsignalParm] RBRKT
// (an empty one is the Signals audit token: see auditItem)
// indAudsignalParm = indAudsignalList / indAudsignalRequest
indAudsignalsDescriptor:
	signalsToken '{' indAudsignalRequest '}'
	{ bld(yylex).indAudSignals() }
|	signalsToken '{' signalListToken '=' safeChars '}'
	{ bld(yylex).indAudSignalList($5, false) }
|	signalsToken '{' signalListToken '=' safeChars '{' indAudsignalRequest '}' '}'
	{ bld(yylex).indAudSignalList($5, true) }

// indAudsignalRequest = signalName [LBRKT indAudsignalRequestParm
//                       *(COMMA indAudsignalRequestParm) RBRKT]
indAudsignalRequest:
	safeChars                                    { bld(yylex).indAudSignal($1, 0) }
|	safeChars '{' indAudsignalRequestParms '}'   { bld(yylex).indAudSignal($1, $3) }

indAudsignalRequestParms:
	indAudsignalRequestParm                              { $$ = 1 }
|	indAudsignalRequestParms ',' indAudsignalRequestParm { $$ = $1 + 1 }

// indAudsignalRequestParm = sigStream / sigRequestID
indAudsignalRequestParm:
	streamToken '=' safeChars    { bld(yylex).param(pStream, $3, 0) }
|	requestIDToken '=' safeChars { bld(yylex).param(pRequestID, $3, 0) }

// indAuddigitMapDescriptor = DigitMapToken EQUAL (digitMapName)
indAuddigitMapDescriptor:
	digitMapToken '=' digitMapName { bld(yylex).indAudDigitMap($3) }

// indAudstatisticsDescriptor = StatsToken LBRKT pkgdName RBRKT
indAudstatisticsDescriptor:
	statsToken '{' safeChars '}' { bld(yylex).indAudStatistics($3) }

// indAudpackagesDescriptor = PackagesToken LBRKT packagesItem RBRKT
indAudpackagesDescriptor:
	packagesToken '{' packagesItem '}' { bld(yylex).indAudPackages() }

// notifyRequest = NotifyToken EQUAL termIDList LBRKT
//                 (observedEventsDescriptor [COMMA errorDescriptor]) RBRKT
// The notify without an error descriptor has its ObservedEvents
// descriptor written out: one reduction less per notify.
notifyRequest:
	notifyToken '=' termIDList '{' observedEventsToken '=' safeChars '{' observedEventList '}' '}'
	{ bld(yylex).observedEvents($7, $9); bld(yylex).notifyRequest($3, false) }
|	notifyToken '=' termIDList '{' observedEventsDescriptor ',' errorDescriptor '}'
	{ bld(yylex).notifyRequest($3, true) }

// notifyReply = NotifyToken EQUAL termIDList [LBRKT errorDescriptor RBRKT]
notifyReply:
	notifyToken '=' termIDList                         { bld(yylex).notifyReply($3, false) }
|	notifyToken '=' termIDList '{' errorDescriptor '}' { bld(yylex).notifyReply($3, true) }

// serviceChangeRequest = ServiceChangeToken EQUAL termIDList LBRKT
//                        serviceChangeDescriptor RBRKT
serviceChangeRequest:
	serviceChangeToken '=' termIDList '{' serviceChangeDescriptor '}'
	{ bld(yylex).serviceChangeRequest($3) }

// serviceChangeReply = ServiceChangeToken EQUAL termIDList [LBRKT
//                      (errorDescriptor / serviceChangeReplyDescriptor) RBRKT]
serviceChangeReply:
	serviceChangeToken '=' termIDList
	{ bld(yylex).serviceChangeReply($3, serviceChangeReplyNone) }
|	serviceChangeToken '=' termIDList '{' errorDescriptor '}'
	{ bld(yylex).serviceChangeReply($3, serviceChangeReplyError) }
|	serviceChangeToken '=' termIDList '{' serviceChangeReplyDescriptor '}'
	{ bld(yylex).serviceChangeReply($3, serviceChangeReplyParms) }

// errorDescriptor = ErrorToken EQUAL ErrorCode LBRKT [quotedString] RBRKT
errorDescriptor:
	errorToken '=' safeChars '{' '}'              { bld(yylex).errorDescriptor($3, span{}, false) }
|	errorToken '=' safeChars '{' quotedString '}' { bld(yylex).errorDescriptor($3, $5, true) }

// mId = ((domainAddress / domainName) [":" portNumber]) / mtpAddress /
//       deviceName
// The ABNF allows no white space in "[a.b.c.d]:port" and "<name>:port":
// the scanner reads them as one token. A portNumber alone
// (serviceChangeAddress) is a SafeChars word like a deviceName.
mId:
	ipv4Token                     { bld(yylex).mID(model.MId_Ip4Address, $1) }
|	ipv6Token                     { bld(yylex).mID(model.MId_Ip6Address, $1) }
|	domainToken                   { bld(yylex).mID(model.MId_DomainName, $1) }
|	mtpToken '{' safeChars '}'    { bld(yylex).mID(model.MId_MtpAddress, $3) }
|	safeChars                     { bld(yylex).mID(model.MId_DeviceName, $1) }

// termIDList = (TerminationID / LSBRKT TerminationID 1*(COMMA TerminationID)
//              RSBRKT)
// $$ is the number of IDs, shifted left once; bit 0 says "bracketed". (The
// TerminationID alternative is written out: it is the most frequent rule
// of all, and this saves the parser a step.)
termIDList:
	safeChars               { bld(yylex).terminationID($1); $$ = 1 << 1 }
|	termKeyword             { bld(yylex).terminationID($1); $$ = 1 << 1 }
|	'[' terminationIDs ']'  { bld(yylex).need(3, $<tok>1, "a list of termination IDs"); $$ = $2<<1 | 1 }

// TerminationID's alternatives written out: one reduction less per ID.
terminationIDs:
	safeChars                      { bld(yylex).terminationID($1); $$ = 1 }
|	termKeyword                    { bld(yylex).terminationID($1); $$ = 1 }
|	terminationIDs ',' safeChars   { bld(yylex).terminationID($3); $$ = $1 + 1 }
|	terminationIDs ',' termKeyword { bld(yylex).terminationID($3); $$ = $1 + 1 }

// terminationIDList = LBRKT TerminationID *(COMMA TerminationID) RBRKT
terminationIDList:
	'{' terminationIDs '}' { $$ = $2 }

// TerminationID = "ROOT" / pathNAME / "$" / "*": safeChars or
// termKeyword, written out where the ABNF has TerminationID (a rule of its
// own cost the parser a reduction for every ID).

// mediaDescriptor = MediaToken LBRKT mediaParm *(COMMA mediaParm) RBRKT
mediaDescriptor:
	mediaToken '{' mediaParmList '}' { bld(yylex).mediaDescriptor($1, $3) }

mediaParmList:
	mediaParm                   { $$ = 1 }
|	mediaParmList ',' mediaParm { $$ = $1 + 1 }

// mediaParm = (streamParm / streamDescriptor / terminationStateDescriptor)
mediaParm:
	streamParm
|	streamDescriptor           { bld(yylex).param(pStreamDescriptor, span{}, 0) }
|	terminationStateDescriptor { bld(yylex).param(pTerminationState, $<tok>1, 0) }

// streamParm = (localDescriptor / remoteDescriptor / localControlDescriptor /
//               statisticsDescriptor)
streamParm:
	localToken '{' octetString '}'  { bld(yylex).localRemote($1, $3, pLocal) }
|	remoteToken '{' octetString '}' { bld(yylex).localRemote($1, $3, pRemote) }
|	localControlDescriptor          { bld(yylex).param(pLocalControl, $<tok>1, 0) }
|	statisticsDescriptor            { bld(yylex).need(3, $<tok>1, "a Statistics descriptor in a stream"); bld(yylex).param(pStatistics, $<tok>1, uint32($1)) }
|	statsToken                      { bld(yylex).need(3, $1, "a Statistics descriptor in a stream"); bld(yylex).param(pStatistics, $1, 0) }

// streamDescriptor = StreamToken EQUAL StreamID LBRKT streamParm
//                    *(COMMA streamParm) RBRKT
streamDescriptor:
	streamToken '=' safeChars '{' streamParmList '}'
	{ bld(yylex).streamDescriptor($3, $5) }

streamParmList:
	streamParm                    { $$ = 1 }
|	streamParmList ',' streamParm { $$ = $1 + 1 }

// localControlDescriptor = LocalControlToken LBRKT localParm
//                          *(COMMA localParm) RBRKT
localControlDescriptor:
	localControlToken '{' localParmList '}' { bld(yylex).localControl($1, $3) }

localParmList:
	localParm                   { $$ = 1 }
|	localParmList ',' localParm { $$ = $1 + 1 }

// localParm = (streamMode / propertyParm / reservedValueMode /
//              reservedGroupMode)
// reservedValueMode = ReservedValueToken EQUAL ("ON" / "OFF")
localParm:
	modeToken '=' streamModes          { bld(yylex).param(pMode, $1, uint32($3)) }
|	propertyParm                       { bld(yylex).param(pProperty, span{}, 0) }
|	reservedValueToken '=' safeChars   { bld(yylex).onOffParam(pReserveValue, $3) }
|	reservedGroupToken '=' safeChars   { bld(yylex).onOffParam(pReserveGroup, $3) }

streamModes:
	sendonlyToken { $$ = int(model.StreamMode_SendOnly) }
|	recvonlyToken { $$ = int(model.StreamMode_RecvOnly) }
|	sendrecvToken { $$ = int(model.StreamMode_SendRecv) }
|	inactiveToken { $$ = int(model.StreamMode_Inactive) }
|	loopbackToken { $$ = int(model.StreamMode_LoopBack) }

// propertyParm = pkgdName parmValue
propertyParm:
	safeChars parmValue { bld(yylex).propertyParm($1, $2) }

// parmValue = (EQUAL alternativeValue / INEQUAL VALUE)
// $$ packs the number of values (left on the builder's stack) and their
// relation (decValueCode).
// A single value after "=" (the most frequent form) is written out here,
// not read as value and alternativeValue: two reductions less.
parmValue:
	'=' safeChars        { bld(yylex).value($2); $$ = decValueCode(1, valueSingle) }
|	'=' quotedString     { bld(yylex).value(span{$2.pos - 1, $2.end + 1}); $$ = decValueCode(1, valueSingle) }
|	'=' anyKeyword       { bld(yylex).value($2); $$ = decValueCode(1, valueSingle) }
|	'=' alternativeValue { $$ = $2 }
|	'>' value            { bld(yylex).value($2); $$ = decValueCode(1, valueGreater) }
|	'<' value            { bld(yylex).value($2); $$ = decValueCode(1, valueSmaller) }
|	'#' value            { bld(yylex).value($2); $$ = decValueCode(1, valueUnequal) }

// alternativeValue = (VALUE / LSBRKT VALUE *(COMMA VALUE) RSBRKT /
//                     LBRKT VALUE *(COMMA VALUE) RBRKT /
//                     LSBRKT VALUE COLON VALUE RSBRKT)
// The single VALUE is in parmValue.
alternativeValue:
	'[' valueList ']'        { $$ = decValueCode($2, valueAnd) }
|	'{' valueList '}'        { $$ = decValueCode($2, valueOr) }
|	'[' value ':' value ']'  { bld(yylex).value($2); bld(yylex).value($4); $$ = decValueCode(2, valueRange) }

valueList:
	value               { bld(yylex).value($1); $$ = 1 }
|	valueList ',' value { bld(yylex).value($3); $$ = $1 + 1 }

// VALUE = quotedString / 1*(SafeChar)
// A quotedString's $$ keeps its quotes, so that the builder can tell the
// forms apart: bare SafeChars are case-insensitive, a quoted string is not.
value:
	safeChars
|	quotedString { $$ = span{$1.pos - 1, $1.end + 1} }
|	anyKeyword

// eventBufferDescriptor = EventBufferToken [LBRKT eventSpec
//                         *(COMMA eventSpec) RBRKT]
eventBufferDescriptor:
	eventBufferToken                       { $$ = 0 }
|	eventBufferToken '{' eventSpecList '}' { $$ = $3 }

eventSpecList:
	eventSpec                   { $$ = 1 }
|	eventSpecList ',' eventSpec { $$ = $1 + 1 }

// eventSpec = pkgdName [LBRKT eventSpecParameter
//             *(COMMA eventSpecParameter) RBRKT]
eventSpec:
	safeChars                                  { bld(yylex).eventSpec($1, 0) }
|	safeChars '{' eventSpecParameterList '}'   { bld(yylex).eventSpec($1, $3) }

eventSpecParameterList:
	eventSpecParameter                            { $$ = 1 }
|	eventSpecParameterList ',' eventSpecParameter { $$ = $1 + 1 }

// eventSpecParameter = (eventStream / eventOther)
eventSpecParameter:
	eventStream { bld(yylex).param(pStream, $1, 0) }
|	eventOther  { bld(yylex).param(pEventParameter, $<tok>1, 0) }

// terminationStateDescriptor = TerminationStateToken LBRKT
//   terminationStateParm *(COMMA terminationStateParm) RBRKT
terminationStateDescriptor:
	terminationStateToken '{' terminationStateParmList '}'
	{ bld(yylex).terminationState($1, $3) }

terminationStateParmList:
	terminationStateParm                              { $$ = 1 }
|	terminationStateParmList ',' terminationStateParm { $$ = $1 + 1 }

// terminationStateParm = (propertyParm / serviceStates / eventBufferControl)
// serviceStates = ServiceStatesToken EQUAL serviceStatesValue
// eventBufferControl = BufferToken EQUAL eventBufferControlValue
terminationStateParm:
	propertyParm                               { bld(yylex).param(pProperty, span{}, 0) }
|	serviceStatesToken '=' serviceStatesValue  { bld(yylex).param(pServiceState, $1, uint32($3)) }
|	bufferToken '=' eventBufferControlValue    { bld(yylex).param(pBuffer, $1, uint32($3)) }

serviceStatesValue:
	testToken     { $$ = int(model.ServiceState_Test) }
|	outOfSvcToken { $$ = int(model.ServiceState_OutOfSvc) }
|	inSvcToken    { $$ = int(model.ServiceState_InSvc) }

// eventBufferControlValue = ("OFF" / LockStepToken)
eventBufferControlValue:
	safeChars     { $$ = bld(yylex).off($1) }
|	lockStepToken { $$ = int(model.EventBufferControl_LockStep) }

// muxDescriptor = MuxToken EQUAL MuxType terminationIDList
muxDescriptor:
	muxToken '=' muxType terminationIDList { bld(yylex).muxDescriptor($3, $4) }

// MuxType = (H221Token / H223Token / H226Token / V76Token /
//            extensionParameter / Nx64kToken)
muxType:
	h221Token   { $$ = int(model.MuxType_H221) }
|	h223Token   { $$ = int(model.MuxType_H223) }
|	h226Token   { $$ = int(model.MuxType_H226) }
|	v76Token    { $$ = int(model.MuxType_V76) }
|	nx64kToken  { bld(yylex).need(2, $1, "Nx64Kservice"); $$ = int(model.MuxType_Nx64k) }
|	safeChars   { bld(yylex).noModelField($1, "an extension mux type"); $$ = 0 }

// eventsDescriptor = EventsToken [EQUAL RequestID LBRKT requestedEvent
//                    *(COMMA requestedEvent) RBRKT]
eventsDescriptor:
	eventsToken
	{ bld(yylex).eventsDescriptor(span{}, false, 0) }
|	eventsToken '=' safeChars '{' requestedEventList '}'
	{ bld(yylex).eventsDescriptor($3, true, $5) }

requestedEventList:
	requestedEvent                        { $$ = 1 }
|	requestedEventList ',' requestedEvent { $$ = $1 + 1 }

// requestedEvent = pkgdName [LBRKT eventParameter *(COMMA eventParameter)
//                  RBRKT]
requestedEvent:
	safeChars                               { bld(yylex).requestedEvent($1, 0) }
|	safeChars '{' eventParameterList '}'    { bld(yylex).requestedEvent($1, $3) }

eventParameterList:
	eventParameter                        { $$ = 1 }
|	eventParameterList ',' eventParameter { $$ = $1 + 1 }

// eventParameter = (embedWithSig / embedNoSig / KeepActiveToken / eventDM /
//                   eventStream / eventOther / notifyBehaviour /
//                   ResetEventsDescriptorToken)
eventParameter:
	embedWithSig                { bld(yylex).param(pEmbed, $<tok>1, 0) }
|	embedNoSig                  { bld(yylex).param(pEmbed, $<tok>1, 0) }
|	keepActiveToken             { bld(yylex).param(pKeepActive, $1, 0) }
|	eventDM                     { bld(yylex).param(pEventDM, $<tok>1, 0) }
|	eventStream                 { bld(yylex).param(pStream, $1, 0) }
|	eventOther                  { bld(yylex).param(pEventParameter, $<tok>1, 0) }
|	notifyBehaviour             { bld(yylex).param(pNotifyBehaviour, $<tok>1, 0) }
|	resetEventsDescriptorToken  { bld(yylex).need(3, $1, "ResetEventsDescriptor"); bld(yylex).param(pResetEvents, $1, 0) }

// notifyBehaviour = NeverNotifyToken / NotifyImmediateToken /
//                   notifyRegulated
// notifyRegulated = NotifyRegulatedToken [LBRKT (embedWithSig / embedNoSig)
//                   RBRKT]
notifyBehaviour:
	neverNotifyToken                         { bld(yylex).notifyBehaviour($1, model.NotifyBehaviour_NeverNotify, false) }
|	notifyImmediateToken                     { bld(yylex).notifyBehaviour($1, model.NotifyBehaviour_NotifyImmediate, false) }
|	notifyRegulatedToken                     { bld(yylex).notifyBehaviour($1, model.NotifyBehaviour_NotifyRegulated, false) }
|	notifyRegulatedToken '{' embedWithSig '}' { bld(yylex).notifyBehaviour($1, model.NotifyBehaviour_NotifyRegulated, true) }
|	notifyRegulatedToken '{' embedNoSig '}'   { bld(yylex).notifyBehaviour($1, model.NotifyBehaviour_NotifyRegulated, true) }

// embedWithSig = EmbedToken LBRKT signalsDescriptor [COMMA embedFirst] RBRKT
// embedNoSig = EmbedToken LBRKT embedFirst RBRKT
// embedSig = EmbedToken LBRKT signalsDescriptor RBRKT
embedWithSig:
	embedToken '{' signalsDescriptor '}'                { bld(yylex).embed($3, false) }
|	embedToken '{' signalsDescriptor ',' embedFirst '}' { bld(yylex).embed($3, true) }

embedNoSig:
	embedToken '{' embedFirst '}' { bld(yylex).embed(-1, true) }

// embedFirst = EventsToken [EQUAL RequestID LBRKT secondRequestedEvent
//              *(COMMA secondRequestedEvent) RBRKT]
embedFirst:
	eventsToken
	{ bld(yylex).secondEvents(span{}, false, 0) }
|	eventsToken '=' safeChars '{' secondRequestedEventList '}'
	{ bld(yylex).secondEvents($3, true, $5) }

secondRequestedEventList:
	secondRequestedEvent                              { $$ = 1 }
|	secondRequestedEventList ',' secondRequestedEvent { $$ = $1 + 1 }

// secondRequestedEvent = pkgdName [LBRKT secondEventParameter
//                        *(COMMA secondEventParameter) RBRKT]
secondRequestedEvent:
	safeChars                                  { bld(yylex).secondRequestedEvent($1, 0) }
|	safeChars '{' secondEventParameterList '}' { bld(yylex).secondRequestedEvent($1, $3) }

secondEventParameterList:
	secondEventParameter                              { $$ = 1 }
|	secondEventParameterList ',' secondEventParameter { $$ = $1 + 1 }

// secondEventParameter = (embedSig / KeepActiveToken / eventDM /
//   eventStream / eventOther / notifyBehaviour / ResetEventsDescriptorToken)
secondEventParameter:
	embedToken '{' signalsDescriptor '}' { bld(yylex).embed($3, false); bld(yylex).param(pEmbed, $1, 0) }
|	keepActiveToken                      { bld(yylex).param(pKeepActive, $1, 0) }
|	eventDM                              { bld(yylex).param(pEventDM, $<tok>1, 0) }
|	eventStream                          { bld(yylex).param(pStream, $1, 0) }
|	eventOther                           { bld(yylex).param(pEventParameter, $<tok>1, 0) }
|	notifyBehaviour                      { bld(yylex).param(pNotifyBehaviour, $<tok>1, 0) }
|	resetEventsDescriptorToken           { bld(yylex).need(3, $1, "ResetEventsDescriptor"); bld(yylex).param(pResetEvents, $1, 0) }

// eventStream = StreamToken EQUAL StreamID
eventStream:
	streamToken '=' safeChars { $$ = $3 }

// eventOther = eventParameterName parmValue
eventOther:
	eventParameterName parmValue { bld(yylex).eventParameter($1, $2) }

// eventParameterName = NAME
eventParameterName:
	safeChars
|	paramKeyword

// eventDM = DigitMapToken EQUAL ((digitMapName) / (LBRKT digitMapValue
//           RBRKT))
eventDM:
	digitMapToken '=' digitMapName               { bld(yylex).eventDM($3, false) }
|	digitMapToken '=' '{' digitMapValue '}'   { bld(yylex).eventDM(span{}, true) }

// signalsDescriptor = SignalsToken [LBRKT signalParm *(COMMA signalParm)
//                     RBRKT]
// (v1 and v2 always have the braces, and allow them empty)
signalsDescriptor:
	signalsToken                        { $$ = 0 }
|	signalsToken '{' '}'                { $$ = 0 }
|	signalsToken '{' signalParmList '}' { $$ = $3 }

signalParmList:
	signalParm                    { $$ = 1 }
|	signalParmList ',' signalParm { $$ = $1 + 1 }

// signalParm = signalList / signalRequest
signalParm:
	signalList
|	signalRequest { bld(yylex).signalRequest() }

// signalRequest = signalName [LBRKT sigParameter *(COMMA sigParameter)
//                 RBRKT]
signalRequest:
	safeChars                             { bld(yylex).signal($1, 0) }
|	safeChars '{' sigParameterList '}'    { bld(yylex).signal($1, $3) }

// signalList = SignalListToken EQUAL signalListId LBRKT signalListParm
//              *(COMMA signalListParm) RBRKT
signalList:
	signalListToken '=' safeChars '{' signalListParmList '}'
	{ bld(yylex).signalList($3, $5) }

signalListParmList:
	signalRequest                        { $$ = 1 }
|	signalListParmList ',' signalRequest { $$ = $1 + 1 }

sigParameterList:
	sigParameter                      { $$ = 1 }
|	sigParameterList ',' sigParameter { $$ = $1 + 1 }

// sigParameter = sigStream / sigSignalType / sigDuration / sigOther /
//                notifyCompletion / KeepActiveToken / sigDirection /
//                sigRequestID / sigIntsigDelay
sigParameter:
	streamToken '=' safeChars          { bld(yylex).param(pStream, $3, 0) }
|	signalTypeToken '=' signalType     { bld(yylex).param(pSignalType, $1, uint32($3)) }
|	durationToken '=' safeChars        { bld(yylex).param(pDuration, $3, 0) }
|	eventParameterName parmValue       { bld(yylex).sigParameter($1, $2) }
|	notifyCompletionToken '=' '{' notificationReasons '}'
	{ bld(yylex).param(pNotifyCompletion, $1, uint32($4)) }
|	keepActiveToken                    { bld(yylex).param(pKeepActive, $1, 0) }
|	directionToken '=' direction       { bld(yylex).need(3, $1, "SPADirection"); bld(yylex).param(pDirection, $1, uint32($3)) }
|	requestIDToken '=' safeChars       { bld(yylex).need(3, $1, "SPARequestID"); bld(yylex).param(pRequestID, $3, 0) }
|	intsigDelayToken '=' safeChars     { bld(yylex).need(3, $1, "Intersignal"); bld(yylex).param(pIntersigDelay, $3, 0) }

// signalType = (OnOffToken / TimeOutToken / BriefToken)
signalType:
	onOffToken   { $$ = int(model.SignalType_OnOff) }
|	timeOutToken { $$ = int(model.SignalType_TimeOut) }
|	briefToken   { $$ = int(model.SignalType_Brief) }

// direction = ExternalToken / InternalToken / BothToken
direction:
	externalToken { $$ = int(model.SignalDirection_External) }
|	internalToken { $$ = int(model.SignalDirection_Internal) }
|	bothToken     { $$ = int(model.SignalDirection_Both) }

// $$ is the NotifyCompletion BIT STRING.
notificationReasons:
	notificationReason                         { $$ = 1 << $1 }
|	notificationReasons ',' notificationReason { $$ = $1 | 1<<$3 }

// notificationReason = (TimeOutToken / InterruptByEventToken /
//   InterruptByNewSignalsDescrToken / OtherReasonToken / IterationToken)
notificationReason:
	timeOutToken                    { $$ = 0 }
|	interruptByEventToken           { $$ = 1 }
|	interruptByNewSignalsDescrToken { $$ = 2 }
|	otherReasonToken                { $$ = 3 }
|	iterationToken                  { bld(yylex).need(3, $1, "Iteration"); $$ = 4 }

// observedEventsDescriptor = ObservedEventsToken EQUAL RequestID LBRKT
//                            observedEvent *(COMMA observedEvent) RBRKT
observedEventsDescriptor:
	observedEventsToken '=' safeChars '{' observedEventList '}'
	{ bld(yylex).observedEvents($3, $5) }

// The first event's alternatives written out: one reduction less per
// ObservedEvents descriptor (most hold one event).
observedEventList:
	safeChars
	{ bld(yylex).observedEvent(span{}, $1, 0); $$ = 1 }
|	safeChars '{' observedEventParameterList '}'
	{ bld(yylex).observedEvent(span{}, $1, $3); $$ = 1 }
|	safeChars ':' safeChars
	{ bld(yylex).observedEvent($1, $3, 0); $$ = 1 }
|	safeChars ':' safeChars '{' observedEventParameterList '}'
	{ bld(yylex).observedEvent($1, $3, $5); $$ = 1 }
|	observedEventList ',' observedEvent { $$ = $1 + 1 }

// observedEvent = [TimeStamp LWSP COLON] LWSP pkgdName
//                 [LBRKT observedEventParameter
//                 *(COMMA observedEventParameter) RBRKT]
observedEvent:
	safeChars
	{ bld(yylex).observedEvent(span{}, $1, 0) }
|	safeChars '{' observedEventParameterList '}'
	{ bld(yylex).observedEvent(span{}, $1, $3) }
|	safeChars ':' safeChars
	{ bld(yylex).observedEvent($1, $3, 0) }
|	safeChars ':' safeChars '{' observedEventParameterList '}'
	{ bld(yylex).observedEvent($1, $3, $5) }

observedEventParameterList:
	observedEventParameter                                { $$ = 1 }
|	observedEventParameterList ',' observedEventParameter { $$ = $1 + 1 }

// observedEventParameter = eventStream / eventOther
observedEventParameter:
	eventStream { bld(yylex).param(pStream, $1, 0) }
|	eventOther  { bld(yylex).param(pEventParameter, $<tok>1, 0) }

// modemDescriptor = ModemToken ((EQUAL modemType) / (LSBRKT modemType
//                   *(COMMA modemType) RSBRKT)) [LBRKT propertyParm
//                   *(COMMA propertyParm) RBRKT]
modemDescriptor:
	modemToken '=' modemType modemProperties
	{ bld(yylex).modemType($3); bld(yylex).modemDescriptor($1, 1, $4) }
|	modemToken '[' modemTypeList ']' modemProperties
	{ bld(yylex).modemDescriptor($1, $3, $5) }

modemTypeList:
	modemType                   { bld(yylex).modemType($1); $$ = 1 }
|	modemTypeList ',' modemType { bld(yylex).modemType($3); $$ = $1 + 1 }

modemProperties:
	/* none */                 { $$ = 0 }
|	'{' propertyParmList '}'   { $$ = $2 }

// modemType = (V32bisToken / V22bisToken / V18Token / V22Token / V32Token /
//              V34Token / V90Token / V91Token / SynchISDNToken /
//              extensionParameter)
modemType:
	v32bisToken    { $$ = int(model.ModemType_V32bis) }
|	v22bisToken    { $$ = int(model.ModemType_V22bis) }
|	v18Token       { $$ = int(model.ModemType_V18) }
|	v22Token       { $$ = int(model.ModemType_V22) }
|	v32Token       { $$ = int(model.ModemType_V32) }
|	v34Token       { $$ = int(model.ModemType_V34) }
|	v90Token       { $$ = int(model.ModemType_V90) }
|	v91Token       { $$ = int(model.ModemType_V91) }
|	synchISDNToken { $$ = int(model.ModemType_SynchISDN) }
|	safeChars      { bld(yylex).noModelField($1, "an extension modem type"); $$ = 0 }

propertyParmList:
	propertyParm                      { $$ = 1 }
|	propertyParmList ',' propertyParm { $$ = $1 + 1 }

// digitMapDescriptor = DigitMapToken EQUAL ((LBRKT digitMapValue RBRKT) /
//                      (digitMapName [LBRKT digitMapValue RBRKT]))
digitMapDescriptor:
	digitMapToken '=' '{' digitMapValue '}'
	{ bld(yylex).digitMapDescriptor(span{}, true) }
|	digitMapToken '=' digitMapName
	{ bld(yylex).digitMapDescriptor($3, false) }
|	digitMapToken '=' digitMapName '{' digitMapValue '}'
	{ bld(yylex).digitMapDescriptor($3, true) }

// digitMapValue = ["T" COLON Timer COMMA] ["S" COLON Timer COMMA]
//                 ["L" COLON Timer COMMA] ["Z" COLON Timer COMMA] digitMap
digitMapValue:
	digitMapTimers digitMapBody { bld(yylex).digitMapValue($1, $2) }

digitMapTimers:
	/* none */                         { $$ = 0 }
|	digitMapTimers digitMapTimer ','   { bld(yylex).param(pTimer, $2, 0); $$ = $1 + 1 }

// serviceChangeDescriptor = ServicesToken LBRKT serviceChangeParm
//                           *(COMMA serviceChangeParm) RBRKT
serviceChangeDescriptor:
	servicesToken '{' serviceChangeParmList '}' { bld(yylex).serviceChangeParm($1, $3) }

serviceChangeParmList:
	serviceChangeParm                           { $$ = 1 }
|	serviceChangeParmList ',' serviceChangeParm { $$ = $1 + 1 }

// serviceChangeParm = (serviceChangeMethod / serviceChangeReason /
//   serviceChangeDelay / serviceChangeAddress / serviceChangeProfile /
//   extension / TimeStamp / serviceChangeMgcId / serviceChangeVersion /
//   ServiceChangeIncompleteToken / auditItem)
serviceChangeParm:
	methodToken '=' serviceChangeMethodValue  { bld(yylex).param(pMethod, $1, uint32($3)) }
|	reasonToken '=' value                     { bld(yylex).value($3); bld(yylex).param(pReason, $3, 0) }
|	delayToken '=' safeChars                  { bld(yylex).param(pDelay, $3, 0) }
|	serviceChangeAddress
|	profileToken '=' safeChars                { bld(yylex).param(pProfile, $3, 0) }
|	safeChars parmValue                       { bld(yylex).extension($1, $2) }
|	safeChars                                 { bld(yylex).param(pTimeStamp, $1, 0) }
|	mgcIdToken '=' mId                        { bld(yylex).param(pMgcID, $3, 0) }
|	versionToken '=' safeChars                { bld(yylex).param(pVersion, $3, 0) }
|	serviceChangeIncompleteToken              { bld(yylex).need(3, $1, "ServiceChangeInc"); bld(yylex).param(pIncomplete, $1, 0) }
|	auditItem

// serviceChangeAddress = ServiceChangeAddressToken EQUAL (mId / portNumber)
serviceChangeAddress:
	serviceChangeAddressToken '=' mId { bld(yylex).param(pAddress, $3, 0) }

// serviceChangeMethod = MethodToken EQUAL (FailoverToken / ForcedToken /
//   GracefulToken / RestartToken / DisconnectedToken / HandOffToken /
//   extensionParameter)
serviceChangeMethodValue:
	failoverToken     { $$ = int(model.ServiceChangeMethod_Failover) }
|	forcedToken       { $$ = int(model.ServiceChangeMethod_Forced) }
|	gracefulToken     { $$ = int(model.ServiceChangeMethod_Graceful) }
|	restartToken      { $$ = int(model.ServiceChangeMethod_Restart) }
|	disconnectedToken { $$ = int(model.ServiceChangeMethod_Disconnected) }
|	handOffToken      { $$ = int(model.ServiceChangeMethod_HandOff) }
|	safeChars         { bld(yylex).noModelField($1, "an extension ServiceChange method"); $$ = 0 }

// serviceChangeReplyDescriptor = ServicesToken LBRKT servChgReplyParm
//                                *(COMMA servChgReplyParm) RBRKT
serviceChangeReplyDescriptor:
	servicesToken '{' servChgReplyParmList '}' { bld(yylex).serviceChangeResParm($1, $3) }

servChgReplyParmList:
	servChgReplyParm                          { $$ = 1 }
|	servChgReplyParmList ',' servChgReplyParm { $$ = $1 + 1 }

// servChgReplyParm = (serviceChangeAddress / serviceChangeMgcId /
//   serviceChangeProfile / serviceChangeVersion / TimeStamp)
servChgReplyParm:
	serviceChangeAddress
|	mgcIdToken '=' mId          { bld(yylex).param(pMgcID, $3, 0) }
|	profileToken '=' safeChars  { bld(yylex).param(pProfile, $3, 0) }
|	versionToken '=' safeChars  { bld(yylex).param(pVersion, $3, 0) }
|	safeChars                   { bld(yylex).param(pTimeStamp, $1, 0) }

// packagesDescriptor = PackagesToken LBRKT packagesItem
//                      *(COMMA packagesItem) RBRKT
packagesDescriptor:
	packagesToken '{' packagesItemList '}' { $$ = $3 }

packagesItemList:
	packagesItem                      { $$ = 1 }
|	packagesItemList ',' packagesItem { $$ = $1 + 1 }

// packagesItem = NAME "-" UINT16
packagesItem:
	safeChars { bld(yylex).packagesItem($1) }

// statisticsDescriptor = StatsToken LBRKT statisticsParameter
//                        *(COMMA statisticsParameter) RBRKT
statisticsDescriptor:
	statsToken '{' statisticsParameterList '}' { bld(yylex).statisticsDone($1, $3); $$ = $3 }

statisticsParameterList:
	statisticsParameter                             { $$ = 1 }
|	statisticsParameterList ',' statisticsParameter { $$ = $1 + 1 }

// statisticsParameter = pkgdName [EQUAL VALUE / (LSBRKT VALUE
//                       *(COMMA VALUE) RSBRKT)]
statisticsParameter:
	safeChars                     { bld(yylex).statistic($1, -1) }
|	safeChars '=' safeChars       { bld(yylex).value($3); bld(yylex).statistic($1, 1) } // value written out
|	safeChars '=' quotedString    { bld(yylex).value(span{$3.pos - 1, $3.end + 1}); bld(yylex).statistic($1, 1) }
|	safeChars '=' anyKeyword      { bld(yylex).value($3); bld(yylex).statistic($1, 1) }
|	safeChars '=' '[' valueList ']' { bld(yylex).statistic($1, $4) }

// digitMapName = NAME: a keyword too ("DigitMap = it" names a digit map).
digitMapName:
	safeChars
|	anyKeyword

// pkgdName = (PackageName SLASH ItemID) / (PackageName SLASH "*") /
//            ("*" SLASH "*"): one SafeChars word, written as safeChars
// where the ABNF has pkgdName (a rule of its own cost the parser a
// reduction for every name).

// Keywords that may stand for a name. termKeyword leaves out those that
// could stand where a termination ID may in a Topology descriptor;
// paramKeyword those that start a signal or event parameter of their own
// with "=".
termKeyword:
	termKeywordNoCtx
|	ctxToken

termKeywordNoCtx:
	keywordName
|	signalTypeToken | durationToken | notifyCompletionToken | directionToken
|	requestIDToken | intsigDelayToken | digitMapToken | errorToken

paramKeyword:
	keywordName
|	ctxToken | errorToken | bothwayToken | isolateToken | onewayToken
|	onewayBothToken | onewayExternalToken

anyKeyword:
	termKeyword
|	bothwayToken | isolateToken | onewayToken | onewayBothToken
|	onewayExternalToken | streamToken

keywordName:
	addToken | andAUDITSelectToken | auditCapToken | auditToken
|	auditValueToken | authToken | bothToken | briefToken
|	bufferToken | contextAttrToken | contextAuditToken | contextListToken
|	delayToken | disconnectedToken | embedToken | emergencyOffToken
|	emergencyToken | emergencyValueToken | eventBufferToken
|	eventsToken | externalToken | failoverToken | forcedToken
|	gracefulToken | h221Token | h223Token | h226Token | handOffToken
|	iepsToken | immAckRequiredToken | inactiveToken | inSvcToken
|	internalToken | interruptByEventToken
|	interruptByNewSignalsDescrToken | iterationToken
|	keepActiveToken | localControlToken | localToken
|	lockStepToken | loopbackToken | mediaToken | messageSegmentToken
|	methodToken | mgcIdToken | modemToken | modeToken | modifyToken
|	moveToken | muxToken | neverNotifyToken
|	notifyImmediateToken | notifyRegulatedToken
|	notifyToken | nx64kToken | observedEventsToken
|	onOffToken | orAUDITselectToken
|	otherReasonToken | outOfSvcToken | packagesToken | pendingToken
|	priorityToken | profileToken | reasonToken | recvonlyToken
|	remoteToken | replyToken | reservedGroupToken
|	reservedValueToken | resetEventsDescriptorToken | responseAckToken
|	restartToken | sendonlyToken | sendrecvToken
|	serviceChangeAddressToken | serviceChangeIncompleteToken
|	serviceChangeToken | serviceStatesToken | servicesToken
|	signalListToken | signalsToken | statsToken
|	subtractToken | synchISDNToken | terminationStateToken
|	testToken | timeOutToken | topologyToken | transToken | v18Token
|	v22bisToken | v22Token | v32bisToken | v32Token | v34Token | v76Token
|	v90Token | v91Token | versionToken

%%
