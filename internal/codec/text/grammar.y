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

// Scanner-made terminals.
%token <tok> SafeChars     // 1*(SafeChar): names, numbers, IDs, values
%token <tok> QuotedString  // DQUOTE ... DQUOTE, the bytes between the quotes
%token <tok> OctetString   // the SDP between Local { and }
%token <tok> DigitMapTimer // "T:1" in a digitMapValue
%token <tok> DigitMapBody  // the digitMap after the timers
%token <tok> VersionHeader // MegacopToken SLASH Version
%token <tok> IPv4Token     // "[" IPv4address "]" [":" portNumber] in an mId
%token <tok> IPv6Token     // "[" IPv6address "]" [":" portNumber] in an mId
%token <tok> DomainToken   // "<" name ">" [":" portNumber] in an mId
%token <tok> OptionalPrefix WildcardPrefix // "O-", "W-" before a command
%token <tok> LexError      // not a token: the scanner failed

// Keywords (Annex B "...Token" rules), long or short.
%token <tok> AddToken AndAUDITSelectToken AuditCapToken AuditToken
%token <tok> AuditValueToken AuthToken BothToken BothwayToken BriefToken
%token <tok> BufferToken ContextAttrToken ContextAuditToken ContextListToken
%token <tok> CtxToken DelayToken DigitMapToken DirectionToken
%token <tok> DisconnectedToken DurationToken EmbedToken EmergencyOffToken
%token <tok> EmergencyToken EmergencyValueToken ErrorToken EventBufferToken
%token <tok> EventsToken ExternalToken FailoverToken ForcedToken
%token <tok> GracefulToken H221Token H223Token H226Token HandOffToken
%token <tok> IEPSToken ImmAckRequiredToken InactiveToken InSvcToken
%token <tok> InternalToken InterruptByEventToken
%token <tok> InterruptByNewSignalsDescrToken IntsigDelayToken IsolateToken
%token <tok> IterationToken KeepActiveToken LocalControlToken LocalToken
%token <tok> LockStepToken LoopbackToken MediaToken MessageSegmentToken
%token <tok> MethodToken MgcIdToken ModemToken ModeToken ModifyToken
%token <tok> MoveToken MTPToken MuxToken NeverNotifyToken
%token <tok> NotifyCompletionToken NotifyImmediateToken NotifyRegulatedToken
%token <tok> NotifyToken Nx64kToken ObservedEventsToken OnewayBothToken
%token <tok> OnewayExternalToken OnewayToken OnOffToken OrAUDITselectToken
%token <tok> OtherReasonToken OutOfSvcToken PackagesToken PendingToken
%token <tok> PriorityToken ProfileToken ReasonToken RecvonlyToken
%token <tok> RemoteToken ReplyToken RequestIDToken ReservedGroupToken
%token <tok> ReservedValueToken ResetEventsDescriptorToken ResponseAckToken
%token <tok> RestartToken SendonlyToken SendrecvToken
%token <tok> ServiceChangeAddressToken ServiceChangeIncompleteToken
%token <tok> ServiceChangeToken ServiceStatesToken ServicesToken
%token <tok> SignalListToken SignalsToken SignalTypeToken StatsToken
%token <tok> StreamToken SubtractToken SynchISDNToken TerminationStateToken
%token <tok> TestToken TimeOutToken TopologyToken TransToken V18Token
%token <tok> V22bisToken V22Token V32bisToken V32Token V34Token V76Token
%token <tok> V90Token V91Token VersionToken

%type <tok> TerminationID value pkgdName eventParameterName
%type <tok> priority iepsValue eventStream
%type <tok> termKeyword termKeywordNoCtx paramKeyword anyKeyword keywordName mId

%type <n> transactionList transactionAckList actionRequestList
%type <n> actionRequestItems contextIdList
%type <n> transactionReplyBody actionReplyList actionReplyBody
%type <n> actionReplyItems
%type <n> contextAuditItems contextAuditItem contextIDs packagesDescriptor
%type <n> topologyItems topologyDirection topologyDirectionExtension
%type <n> termIDList terminationIDs terminationIDList auditTermIDList
%type <n> ammToken ammsToken auditToken ammParameterList terminationAudit
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
megacoMessage:
	message
|	authenticationHeader message

// authenticationHeader = AuthToken EQUAL SecurityParmIndex COLON
//                        SequenceNum COLON AuthData
authenticationHeader:
	AuthToken '=' SafeChars ':' SafeChars ':' SafeChars
	{ bld(yylex).authenticationHeader($3, $5, $7) }

// message = MegacopToken SLASH Version SEP mId SEP messageBody
message:
	VersionHeader mId messageBody
	{ bld(yylex).message() }

messageBody:
	errorDescriptor { bld(yylex).messageError() }
|	transactionList { bld(yylex).transactions($1) }

transactionList:
	transaction                 { $$ = 1 }
|	transactionList transaction { $$ = $1 + 1 }

transaction:
	transactionRequest
|	transactionReply
|	transactionPending
|	transactionResponseAck
|	segmentReply

// TransactionID = UINT32; with the v3 segment information
// (TransactionID SLASH segmentNumber [SLASH SegmentationCompleteToken])
// it is one SafeChars word, "8989/1/END".
transactionRequest:
	TransToken '=' SafeChars '{' actionRequestList '}'
	{ bld(yylex).transactionRequest($3, $5) }

transactionReply:
	ReplyToken '=' SafeChars '{' transactionReplyBody '}'
	{ bld(yylex).transactionReply($3, $5) }

transactionReplyBody:
	errorDescriptor                             { $$ = replyError }
|	actionReplyList                             { $$ = $1 << replyShift }
|	ImmAckRequiredToken ',' errorDescriptor     { $$ = replyError | replyImmAck }
|	ImmAckRequiredToken ',' actionReplyList     { $$ = $3<<replyShift | replyImmAck }

transactionPending:
	PendingToken '=' SafeChars '{' '}'
	{ bld(yylex).transactionPending($3) }

transactionResponseAck:
	ResponseAckToken '{' transactionAckList '}'
	{ bld(yylex).transactionResponseAck($3) }

transactionAckList:
	transactionAck                        { $$ = 1 }
|	transactionAckList ',' transactionAck { $$ = $1 + 1 }

// transactionAck = TransactionID / (TransactionID "-" TransactionID)
transactionAck:
	SafeChars { bld(yylex).transactionAck($1) }

// segmentReply = MessageSegmentToken EQUAL TransactionID SLASH
//                segmentNumber [SLASH SegmentationCompleteToken]
segmentReply:
	MessageSegmentToken '=' SafeChars { bld(yylex).segmentReply($1, $3) }

actionRequestList:
	actionRequest                       { $$ = 1 }
|	actionRequestList ',' actionRequest { $$ = $1 + 1 }

// actionRequest = CtxToken EQUAL ContextID LBRKT ((contextRequest
//                 [COMMA commandRequestList]) / commandRequestList) RBRKT
// The context properties, the context audit and the commands are taken in
// any order: the binary form keeps them in separate fields anyway.
actionRequest:
	CtxToken '=' SafeChars '{' actionRequestItems '}'
	{ bld(yylex).actionRequest($3, $5) }

actionRequestItems:
	actionRequestItem                        { $$ = 1 }
|	actionRequestItems ',' actionRequestItem { $$ = $1 + 1 }

// commandRequestList = ["O-"] ["W-"] commandRequest
//                      *(COMMA ["O-"] ["W-"] commandRequest)
actionRequestItem:
	contextProperty
|	contextAudit
|	commandRequest                               { bld(yylex).commandRequest(0) }
|	OptionalPrefix commandRequest                { bld(yylex).commandRequest(prefixOptional) }
|	WildcardPrefix commandRequest                { bld(yylex).commandRequest(prefixWildcard) }
|	OptionalPrefix WildcardPrefix commandRequest { bld(yylex).commandRequest(prefixOptional | prefixWildcard) }

commandRequest:
	ammRequest
|	subtractRequest
|	auditRequest
|	notifyRequest
|	serviceChangeRequest

// contextProperty = (topologyDescriptor / priority / EmergencyToken /
//                    EmergencyOffToken / iepsValue / contextAttrDescriptor)
contextProperty:
	topologyDescriptor
|	priority                { bld(yylex).param(pPriority, $1, 0) }
|	EmergencyToken          { bld(yylex).param(pEmergency, $1, 1) }
|	EmergencyOffToken       { bld(yylex).param(pEmergency, $1, 0) }
|	iepsValue               { bld(yylex).param(pIEPS, $1, 0) }
|	contextAttrDescriptor

// contextAudit = ContextAuditToken LBRKT (contextAuditProperties
//                *(COMMA contextAuditProperties)) /
//                indAudcontextAttrDescriptor RBRKT
contextAudit:
	ContextAuditToken '{' contextAuditItems '}'
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
	TopologyToken        { bld(yylex).param(pAuditTopology, $1, 0); $$ = 1 }
|	EmergencyToken       { bld(yylex).param(pAuditEmergency, $1, 0); $$ = 1 }
|	PriorityToken        { bld(yylex).param(pAuditPriority, $1, 0); $$ = 1 }
|	IEPSToken            { bld(yylex).param(pAuditIEPS, $1, 0); $$ = 1 }
|	pkgdName             { bld(yylex).param(pAuditName, $1, 0); $$ = 1 }
|	propertyParm         { bld(yylex).param(pProperty, span{}, 0); $$ = 1 }
|	priority             { bld(yylex).param(pPriority, $1, 0); $$ = 1 }
|	emergencyValue       { $$ = 1 }
|	iepsValue            { bld(yylex).param(pIEPS, $1, 0); $$ = 1 }
|	AndAUDITSelectToken  { bld(yylex).param(pSelectLogic, $1, uint32(model.SelectLogic_AndAUDITSelect)); $$ = 1 }
|	OrAUDITselectToken   { bld(yylex).param(pSelectLogic, $1, uint32(model.SelectLogic_OrAUDITSelect)); $$ = 1 }
|	ContextAttrToken '{' contextAuditItems '}' { bld(yylex).need(3, $1, "ContextAttr"); $$ = $3 }
|	ContextAttrToken '{' contextIdList '}'     { bld(yylex).contextListInAudit($1, $3); $$ = 1 }

// emergencyValue = EmergencyValueToken EQUAL (EmergencyToken /
//                  EmergencyOffToken)
emergencyValue:
	EmergencyValueToken '=' EmergencyToken    { bld(yylex).need(3, $1, "EmergencyValue"); bld(yylex).param(pSelectEmergency, $1, 1) }
|	EmergencyValueToken '=' EmergencyOffToken { bld(yylex).need(3, $1, "EmergencyValue"); bld(yylex).param(pSelectEmergency, $1, 0) }

// priority = PriorityToken EQUAL UINT16
priority:
	PriorityToken '=' SafeChars { $$ = $3 }

// iepsValue = IEPSToken EQUAL ("ON" / "OFF")
iepsValue:
	IEPSToken '=' SafeChars { bld(yylex).need(3, $1, "IEPSCall"); $$ = $3 }

// contextAttrDescriptor = ContextAttrToken LBRKT (contextIdList /
//                         propertyParm *(COMMA propertyParm)) RBRKT
contextAttrDescriptor:
	ContextAttrToken '{' propertyParmList '}'
	{ bld(yylex).param(pContextProps, $1, uint32($3)) }
|	ContextAttrToken '{' contextIdList '}'
	{ bld(yylex).param(pContextList, $1, uint32($3)) }

// contextIdList = ContextListToken EQUAL LBRKT ContextID *(COMMA ContextID)
//                 RBRKT
contextIdList:
	ContextListToken '=' '{' contextIDs '}' { $$ = $4 }

contextIDs:
	SafeChars                { bld(yylex).contextID($1); $$ = 1 }
|	contextIDs ',' SafeChars { bld(yylex).contextID($3); $$ = $1 + 1 }

// topologyDescriptor = TopologyToken LBRKT topologyTriple
//                      *(COMMA topologyTriple) RBRKT
// topologyTriple = terminationA COMMA terminationB COMMA
//                  topologyDirection [COMMA eventStream]
// Erlang/OTP writes the v3 direction extension as a token of its own after
// the direction ("..., Oneway, OnewayBoth"); both forms are read.
topologyDescriptor:
	TopologyToken '{' topologyItems '}'
	{ bld(yylex).param(pTopology, $1, uint32($3)) }

topologyItems:
	topologyTriple                                 { $$ = 1 }
|	topologyItems ',' topologyTriple               { $$ = $1 + 1 }
|	topologyItems ',' eventStream                  { bld(yylex).topologyStream($3); $$ = $1 }
|	topologyItems ',' topologyDirectionExtension   { bld(yylex).topologyExtension($3); $$ = $1 }

topologyTriple:
	TerminationID ',' TerminationID ',' topologyDirection
	{ bld(yylex).topologyTriple($1, $3, $5) }

topologyDirection:
	BothwayToken               { $$ = int(model.TopologyRequestTopologyDirection_Bothway) }
|	IsolateToken               { $$ = int(model.TopologyRequestTopologyDirection_Isolate) }
|	OnewayToken                { $$ = int(model.TopologyRequestTopologyDirection_Oneway) }
|	topologyDirectionExtension { $$ = $1 }

topologyDirectionExtension:
	OnewayExternalToken { bld(yylex).need(3, $1, "OnewayExternal"); $$ = directionExternal }
|	OnewayBothToken     { bld(yylex).need(3, $1, "OnewayBoth"); $$ = directionBoth }

// actionReplyList = actionReply *(COMMA actionReply)
actionReplyList:
	actionReply                     { $$ = 1 }
|	actionReplyList ',' actionReply { $$ = $1 + 1 }

// actionReply = CtxToken EQUAL ContextID [LBRKT (errorDescriptor /
//               commandReply / (commandReply COMMA errorDescriptor)) RBRKT]
// commandReply = ((contextProperties [COMMA commandReplyList]) /
//                commandReplyList)
actionReply:
	CtxToken '=' SafeChars                         { bld(yylex).actionReply($3, 0) }
|	CtxToken '=' SafeChars '{' actionReplyBody '}' { bld(yylex).actionReply($3, $5) }

actionReplyBody:
	errorDescriptor                          { $$ = replyError }
|	actionReplyItems                         { $$ = $1 << replyShift }
|	actionReplyItems ',' errorDescriptor     { $$ = $1<<replyShift | replyError }

actionReplyItems:
	actionReplyItem                      { $$ = 1 }
|	actionReplyItems ',' actionReplyItem { $$ = $1 + 1 }

actionReplyItem:
	contextProperty
|	commandReply    { bld(yylex).param(pCommand, span{}, 0) }

// commandReplys = (serviceChangeReply / auditReply / ammsReply /
//                  notifyReply)
commandReply:
	serviceChangeReply
|	auditReply
|	ammsReply
|	notifyReply

// ammRequest = (AddToken / MoveToken / ModifyToken) EQUAL termIDList
//              [LBRKT ammParameter *(COMMA ammParameter) RBRKT]
ammRequest:
	ammToken '=' termIDList
	{ bld(yylex).ammRequest($1, $3, 0) }
|	ammToken '=' termIDList '{' ammParameterList '}'
	{ bld(yylex).ammRequest($1, $3, $5) }

ammToken:
	AddToken    { $$ = int(model.Command_AddReq) }
|	MoveToken   { $$ = int(model.Command_MoveReq) }
|	ModifyToken { $$ = int(model.Command_ModReq) }

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

// ammsReply = (AddToken / MoveToken / ModifyToken / SubtractToken) EQUAL
//             termIDList [LBRKT terminationAudit RBRKT]
ammsReply:
	ammsToken '=' termIDList                          { bld(yylex).ammsReply($1, $3, -1) }
|	ammsToken '=' termIDList '{' terminationAudit '}' { bld(yylex).ammsReply($1, $3, $5) }

ammsToken:
	AddToken      { $$ = int(model.CommandReply_AddReply) }
|	MoveToken     { $$ = int(model.CommandReply_MoveReply) }
|	ModifyToken   { $$ = int(model.CommandReply_ModReply) }
|	SubtractToken { $$ = int(model.CommandReply_SubtractReply) }

// subtractRequest = SubtractToken EQUAL termIDList [LBRKT auditDescriptor
//                   RBRKT]
subtractRequest:
	SubtractToken '=' termIDList                         { bld(yylex).subtractRequest($3, false) }
|	SubtractToken '=' termIDList '{' auditDescriptor '}' { bld(yylex).subtractRequest($3, true) }

// auditRequest = (AuditValueToken / AuditCapToken) EQUAL termIDList LBRKT
//                auditDescriptor RBRKT
auditRequest:
	auditToken '=' termIDList '{' auditDescriptor '}'
	{ bld(yylex).auditRequest($1, $3) }

auditToken:
	AuditValueToken { $$ = auditValue }
|	AuditCapToken   { $$ = auditCap }

// auditReply = (AuditValueToken / AuditCapToken) (contextTerminationAudit /
//              auditOther)
// contextTerminationAudit = EQUAL CtxToken (terminationIDList / LBRKT
//                           errorDescriptor RBRKT)
// auditOther = EQUAL termIDList [LBRKT terminationAudit RBRKT]
// (A termination ID named like CtxToken cannot stand first here.)
auditReply:
	auditToken '=' CtxToken terminationIDList                { bld(yylex).contextAuditResult($1, $4) }
|	auditToken '=' CtxToken '{' errorDescriptor '}'          { bld(yylex).auditReplyError($1) }
|	auditToken '=' auditTermIDList                           { bld(yylex).auditResult($1, $3, 0) }
|	auditToken '=' auditTermIDList '{' terminationAudit '}'  { bld(yylex).auditResult($1, $3, $5) }

auditTermIDList:
	SafeChars               { bld(yylex).terminationID($1); $$ = 1 << 1 }
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
	MuxToken            { $$ = auditMux }
|	ModemToken          { $$ = auditModem }
|	MediaToken          { $$ = auditMedia }
|	DigitMapToken       { $$ = auditDigitMap }
|	StatsToken          { $$ = auditStatistics }
|	ObservedEventsToken { $$ = auditObservedEvents }
|	PackagesToken       { $$ = auditPackages }

// auditDescriptor = AuditToken LBRKT [auditItem *(COMMA auditItem)] RBRKT
auditDescriptor:
	AuditToken '{' '}'               { bld(yylex).auditDescriptor(0) }
|	AuditToken '{' auditItemList '}' { bld(yylex).auditDescriptor($3) }

auditItemList:
	auditItem                   { $$ = 1 }
|	auditItemList ',' auditItem { $$ = $1 + 1 }

// auditItem = auditReturnItem / SignalsToken / EventBufferToken /
//             EventsToken / indAudterminationAudit (v2 and later)
// Each leaves one parameter for auditDescriptor or serviceChangeParm.
auditItem:
	auditReturnItem            { bld(yylex).param(pAuditToken, span{}, uint32($1)) }
|	SignalsToken               { bld(yylex).param(pAuditToken, $1, auditSignals) }
|	SignalsToken '{' '}'       { bld(yylex).param(pAuditToken, $1, auditSignals) }
|	EventBufferToken           { bld(yylex).param(pAuditToken, $1, auditEventBuffer) }
|	EventsToken                { bld(yylex).param(pAuditToken, $1, auditEvents) }
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
	MediaToken '{' indAudmediaParms '}' { bld(yylex).indAudMedia($1, $3) }

indAudmediaParms:
	indAudmediaParm                      { $$ = 1 }
|	indAudmediaParms ',' indAudmediaParm { $$ = $1 + 1 }

// indAudmediaParm = indAudstreamParm / indAudstreamDescriptor /
//                   indAudterminationStateDescriptor
indAudmediaParm:
	indAudstreamParm
|	indAudstreamDescriptor           { bld(yylex).param(pStreamDescriptor, span{}, 0) }
|	indAudterminationStateDescriptor { bld(yylex).param(pTerminationState, span{}, 0) }

// indAudstreamParm = (indAudlocalControlDescriptor /
//   indAudstatisticsDescriptor / indAudremoteDescriptor /
//   indAudlocalDescriptor)
indAudstreamParm:
	indAudlocalControlDescriptor { bld(yylex).param(pLocalControl, span{}, 0) }
|	indAudstatisticsDescriptor   { bld(yylex).need(3, $<tok>1, "a Statistics audit in a stream"); bld(yylex).param(pIndAudStatistics, $<tok>1, 0) }
|	RemoteToken '{' OctetString '}' { bld(yylex).indAudLocalRemote($1, $3, pRemote) }
|	LocalToken '{' OctetString '}'  { bld(yylex).indAudLocalRemote($1, $3, pLocal) }

// indAudstreamDescriptor = StreamToken EQUAL StreamID LBRKT
//                          indAudstreamParm RBRKT
// (more than one indAudstreamParm is read, as in a streamDescriptor)
indAudstreamDescriptor:
	StreamToken '=' SafeChars '{' indAudstreamParms '}'
	{ bld(yylex).indAudStream($3, $5) }

indAudstreamParms:
	indAudstreamParm                       { $$ = 1 }
|	indAudstreamParms ',' indAudstreamParm { $$ = $1 + 1 }

// indAudlocalControlDescriptor = LocalControlToken LBRKT indAudlocalParm
//                                *(COMMA indAudlocalParm) RBRKT
indAudlocalControlDescriptor:
	LocalControlToken '{' indAudlocalParms '}' { bld(yylex).indAudLocalControl($3) }

indAudlocalParms:
	indAudlocalParm                      { $$ = 1 }
|	indAudlocalParms ',' indAudlocalParm { $$ = $1 + 1 }

// indAudlocalParm = ModeToken [(EQUAL/INEQUAL) streamModes] / pkgdName /
//                   propertyParm / ReservedValueToken / ReservedGroupToken
indAudlocalParm:
	ModeToken                     { bld(yylex).param(pAuditMode, $1, 0) }
|	ModeToken '=' streamModes     { bld(yylex).param(pMode, $1, uint32($3)) }
|	ModeToken inequal streamModes { bld(yylex).noInequality($1, "Mode") }
|	pkgdName                      { bld(yylex).param(pAuditName, $1, 0) }
|	propertyParm                  { bld(yylex).param(pProperty, span{}, 0) }
|	ReservedValueToken            { bld(yylex).param(pAuditReserveValue, $1, 0) }
|	ReservedGroupToken            { bld(yylex).param(pAuditReserveGroup, $1, 0) }

inequal:
	'>'
|	'<'
|	'#'

// indAudterminationStateDescriptor = TerminationStateToken LBRKT
//                                    indAudterminationStateParm RBRKT
// (a list is read, as in a terminationStateDescriptor)
indAudterminationStateDescriptor:
	TerminationStateToken '{' indAudterminationStateParms '}'
	{ bld(yylex).indAudTerminationState($3) }

indAudterminationStateParms:
	indAudterminationStateParm                                 { $$ = 1 }
|	indAudterminationStateParms ',' indAudterminationStateParm { $$ = $1 + 1 }

// indAudterminationStateParm = pkgdName / propertyParm /
//   ServiceStatesToken [(EQUAL/INEQUAL) serviceStatesValue] / BufferToken
indAudterminationStateParm:
	pkgdName                                       { bld(yylex).param(pAuditName, $1, 0) }
|	propertyParm                                   { bld(yylex).param(pProperty, span{}, 0) }
|	ServiceStatesToken                             { bld(yylex).param(pAuditServiceState, $1, 0) }
|	ServiceStatesToken '=' serviceStatesValue      { bld(yylex).param(pServiceState, $1, uint32($3)) }
|	ServiceStatesToken inequal serviceStatesValue  { bld(yylex).noInequality($1, "ServiceStates") }
|	BufferToken                                    { bld(yylex).param(pAuditBuffer, $1, 0) }

// indAudeventBufferDescriptor = EventBufferToken LBRKT indAudeventSpec RBRKT
// indAudeventSpec = pkgdName [LBRKT indAudeventSpecParameter RBRKT]
// indAudeventSpecParameter = eventStream / eventParameterName
indAudeventBufferDescriptor:
	EventBufferToken '{' pkgdName '}'
	{ bld(yylex).indAudEventBuffer($3, span{}) }
|	EventBufferToken '{' pkgdName '{' eventStream '}' '}'
	{ bld(yylex).indAudEventBuffer($3, $5) }
|	EventBufferToken '{' pkgdName '{' eventParameterName '}' '}'
	{ bld(yylex).noModelField($5, "an event parameter name in an EventBuffer audit"); bld(yylex).indAudEventBuffer($3, span{}) }

// indAudeventsDescriptor = EventsToken [EQUAL RequestID] LBRKT
//                          indAudrequestedEvent RBRKT
indAudeventsDescriptor:
	EventsToken '{' pkgdName '}'               { bld(yylex).indAudEvents(span{}, $3) }
|	EventsToken '=' SafeChars '{' pkgdName '}' { bld(yylex).indAudEvents($3, $5) }

// indAudsignalsDescriptor = SignalsToken LBRKT [indAudsignalParm] RBRKT
// (an empty one is the Signals audit token: see auditItem)
// indAudsignalParm = indAudsignalList / indAudsignalRequest
indAudsignalsDescriptor:
	SignalsToken '{' indAudsignalRequest '}'
	{ bld(yylex).indAudSignals() }
|	SignalsToken '{' SignalListToken '=' SafeChars '}'
	{ bld(yylex).indAudSignalList($5, false) }
|	SignalsToken '{' SignalListToken '=' SafeChars '{' indAudsignalRequest '}' '}'
	{ bld(yylex).indAudSignalList($5, true) }

// indAudsignalRequest = signalName [LBRKT indAudsignalRequestParm
//                       *(COMMA indAudsignalRequestParm) RBRKT]
indAudsignalRequest:
	pkgdName                                     { bld(yylex).indAudSignal($1, 0) }
|	pkgdName '{' indAudsignalRequestParms '}'    { bld(yylex).indAudSignal($1, $3) }

indAudsignalRequestParms:
	indAudsignalRequestParm                              { $$ = 1 }
|	indAudsignalRequestParms ',' indAudsignalRequestParm { $$ = $1 + 1 }

// indAudsignalRequestParm = sigStream / sigRequestID
indAudsignalRequestParm:
	StreamToken '=' SafeChars    { bld(yylex).param(pStream, $3, 0) }
|	RequestIDToken '=' SafeChars { bld(yylex).param(pRequestID, $3, 0) }

// indAuddigitMapDescriptor = DigitMapToken EQUAL (digitMapName)
indAuddigitMapDescriptor:
	DigitMapToken '=' SafeChars { bld(yylex).indAudDigitMap($3) }

// indAudstatisticsDescriptor = StatsToken LBRKT pkgdName RBRKT
indAudstatisticsDescriptor:
	StatsToken '{' pkgdName '}' { bld(yylex).indAudStatistics($3) }

// indAudpackagesDescriptor = PackagesToken LBRKT packagesItem RBRKT
indAudpackagesDescriptor:
	PackagesToken '{' packagesItem '}' { bld(yylex).indAudPackages() }

// notifyRequest = NotifyToken EQUAL termIDList LBRKT
//                 (observedEventsDescriptor [COMMA errorDescriptor]) RBRKT
notifyRequest:
	NotifyToken '=' termIDList '{' observedEventsDescriptor '}'
	{ bld(yylex).notifyRequest($3, false) }
|	NotifyToken '=' termIDList '{' observedEventsDescriptor ',' errorDescriptor '}'
	{ bld(yylex).notifyRequest($3, true) }

// notifyReply = NotifyToken EQUAL termIDList [LBRKT errorDescriptor RBRKT]
notifyReply:
	NotifyToken '=' termIDList                         { bld(yylex).notifyReply($3, false) }
|	NotifyToken '=' termIDList '{' errorDescriptor '}' { bld(yylex).notifyReply($3, true) }

// serviceChangeRequest = ServiceChangeToken EQUAL termIDList LBRKT
//                        serviceChangeDescriptor RBRKT
serviceChangeRequest:
	ServiceChangeToken '=' termIDList '{' serviceChangeDescriptor '}'
	{ bld(yylex).serviceChangeRequest($3) }

// serviceChangeReply = ServiceChangeToken EQUAL termIDList [LBRKT
//                      (errorDescriptor / serviceChangeReplyDescriptor) RBRKT]
serviceChangeReply:
	ServiceChangeToken '=' termIDList
	{ bld(yylex).serviceChangeReply($3, serviceChangeReplyNone) }
|	ServiceChangeToken '=' termIDList '{' errorDescriptor '}'
	{ bld(yylex).serviceChangeReply($3, serviceChangeReplyError) }
|	ServiceChangeToken '=' termIDList '{' serviceChangeReplyDescriptor '}'
	{ bld(yylex).serviceChangeReply($3, serviceChangeReplyParms) }

// errorDescriptor = ErrorToken EQUAL ErrorCode LBRKT [quotedString] RBRKT
errorDescriptor:
	ErrorToken '=' SafeChars '{' '}'              { bld(yylex).errorDescriptor($3, span{}, false) }
|	ErrorToken '=' SafeChars '{' QuotedString '}' { bld(yylex).errorDescriptor($3, $5, true) }

// mId = ((domainAddress / domainName) [":" portNumber]) / mtpAddress /
//       deviceName
// The ABNF allows no white space in "[a.b.c.d]:port" and "<name>:port":
// the scanner reads them as one token. A portNumber alone
// (serviceChangeAddress) is a SafeChars word like a deviceName.
mId:
	IPv4Token                     { bld(yylex).mID(model.MId_Ip4Address, $1) }
|	IPv6Token                     { bld(yylex).mID(model.MId_Ip6Address, $1) }
|	DomainToken                   { bld(yylex).mID(model.MId_DomainName, $1) }
|	MTPToken '{' SafeChars '}'    { bld(yylex).mID(model.MId_MtpAddress, $3) }
|	SafeChars                     { bld(yylex).mID(model.MId_DeviceName, $1) }

// termIDList = (TerminationID / LSBRKT TerminationID 1*(COMMA TerminationID)
//              RSBRKT)
// $$ is the number of IDs, shifted left once; bit 0 says "bracketed". (The
// TerminationID alternative is written out: it is the most frequent rule
// of all, and this saves the parser a step.)
termIDList:
	SafeChars               { bld(yylex).terminationID($1); $$ = 1 << 1 }
|	termKeyword             { bld(yylex).terminationID($1); $$ = 1 << 1 }
|	'[' terminationIDs ']'  { bld(yylex).need(3, $<tok>1, "a list of termination IDs"); $$ = $2<<1 | 1 }

terminationIDs:
	TerminationID                    { bld(yylex).terminationID($1); $$ = 1 }
|	terminationIDs ',' TerminationID { bld(yylex).terminationID($3); $$ = $1 + 1 }

// terminationIDList = LBRKT TerminationID *(COMMA TerminationID) RBRKT
terminationIDList:
	'{' terminationIDs '}' { $$ = $2 }

// TerminationID = "ROOT" / pathNAME / "$" / "*"
TerminationID:
	SafeChars
|	termKeyword

// mediaDescriptor = MediaToken LBRKT mediaParm *(COMMA mediaParm) RBRKT
mediaDescriptor:
	MediaToken '{' mediaParmList '}' { bld(yylex).mediaDescriptor($1, $3) }

mediaParmList:
	mediaParm                   { $$ = 1 }
|	mediaParmList ',' mediaParm { $$ = $1 + 1 }

// mediaParm = (streamParm / streamDescriptor / terminationStateDescriptor)
mediaParm:
	streamParm
|	streamDescriptor           { bld(yylex).param(pStreamDescriptor, span{}, 0) }
|	terminationStateDescriptor { bld(yylex).param(pTerminationState, span{}, 0) }

// streamParm = (localDescriptor / remoteDescriptor / localControlDescriptor /
//               statisticsDescriptor)
streamParm:
	LocalToken '{' OctetString '}'  { bld(yylex).localRemote($1, $3, pLocal) }
|	RemoteToken '{' OctetString '}' { bld(yylex).localRemote($1, $3, pRemote) }
|	localControlDescriptor          { bld(yylex).param(pLocalControl, span{}, 0) }
|	statisticsDescriptor            { bld(yylex).need(3, $<tok>1, "a Statistics descriptor in a stream"); bld(yylex).param(pStatistics, $<tok>1, uint32($1)) }

// streamDescriptor = StreamToken EQUAL StreamID LBRKT streamParm
//                    *(COMMA streamParm) RBRKT
streamDescriptor:
	StreamToken '=' SafeChars '{' streamParmList '}'
	{ bld(yylex).streamDescriptor($3, $5) }

streamParmList:
	streamParm                    { $$ = 1 }
|	streamParmList ',' streamParm { $$ = $1 + 1 }

// localControlDescriptor = LocalControlToken LBRKT localParm
//                          *(COMMA localParm) RBRKT
localControlDescriptor:
	LocalControlToken '{' localParmList '}' { bld(yylex).localControl($3) }

localParmList:
	localParm                   { $$ = 1 }
|	localParmList ',' localParm { $$ = $1 + 1 }

// localParm = (streamMode / propertyParm / reservedValueMode /
//              reservedGroupMode)
// reservedValueMode = ReservedValueToken EQUAL ("ON" / "OFF")
localParm:
	ModeToken '=' streamModes          { bld(yylex).param(pMode, $1, uint32($3)) }
|	propertyParm                       { bld(yylex).param(pProperty, span{}, 0) }
|	ReservedValueToken '=' SafeChars   { bld(yylex).onOffParam(pReserveValue, $3) }
|	ReservedGroupToken '=' SafeChars   { bld(yylex).onOffParam(pReserveGroup, $3) }

streamModes:
	SendonlyToken { $$ = int(model.StreamMode_SendOnly) }
|	RecvonlyToken { $$ = int(model.StreamMode_RecvOnly) }
|	SendrecvToken { $$ = int(model.StreamMode_SendRecv) }
|	InactiveToken { $$ = int(model.StreamMode_Inactive) }
|	LoopbackToken { $$ = int(model.StreamMode_LoopBack) }

// propertyParm = pkgdName parmValue
propertyParm:
	pkgdName parmValue { bld(yylex).propertyParm($1, $2) }

// parmValue = (EQUAL alternativeValue / INEQUAL VALUE)
// $$ packs the number of values (left on the builder's stack) and their
// relation (decValueCode).
parmValue:
	'=' alternativeValue { $$ = $2 }
|	'>' value            { bld(yylex).value($2); $$ = decValueCode(1, valueGreater) }
|	'<' value            { bld(yylex).value($2); $$ = decValueCode(1, valueSmaller) }
|	'#' value            { bld(yylex).value($2); $$ = decValueCode(1, valueUnequal) }

// alternativeValue = (VALUE / LSBRKT VALUE *(COMMA VALUE) RSBRKT /
//                     LBRKT VALUE *(COMMA VALUE) RBRKT /
//                     LSBRKT VALUE COLON VALUE RSBRKT)
alternativeValue:
	value                    { bld(yylex).value($1); $$ = decValueCode(1, valueSingle) }
|	'[' valueList ']'        { $$ = decValueCode($2, valueAnd) }
|	'{' valueList '}'        { $$ = decValueCode($2, valueOr) }
|	'[' value ':' value ']'  { bld(yylex).value($2); bld(yylex).value($4); $$ = decValueCode(2, valueRange) }

valueList:
	value               { bld(yylex).value($1); $$ = 1 }
|	valueList ',' value { bld(yylex).value($3); $$ = $1 + 1 }

// VALUE = quotedString / 1*(SafeChar)
value:
	SafeChars
|	QuotedString
|	anyKeyword

// eventBufferDescriptor = EventBufferToken [LBRKT eventSpec
//                         *(COMMA eventSpec) RBRKT]
eventBufferDescriptor:
	EventBufferToken                       { $$ = 0 }
|	EventBufferToken '{' eventSpecList '}' { $$ = $3 }

eventSpecList:
	eventSpec                   { $$ = 1 }
|	eventSpecList ',' eventSpec { $$ = $1 + 1 }

// eventSpec = pkgdName [LBRKT eventSpecParameter
//             *(COMMA eventSpecParameter) RBRKT]
eventSpec:
	pkgdName                                   { bld(yylex).eventSpec($1, 0) }
|	pkgdName '{' eventSpecParameterList '}'    { bld(yylex).eventSpec($1, $3) }

eventSpecParameterList:
	eventSpecParameter                            { $$ = 1 }
|	eventSpecParameterList ',' eventSpecParameter { $$ = $1 + 1 }

// eventSpecParameter = (eventStream / eventOther)
eventSpecParameter:
	eventStream { bld(yylex).param(pStream, $1, 0) }
|	eventOther  { bld(yylex).param(pEventParameter, span{}, 0) }

// terminationStateDescriptor = TerminationStateToken LBRKT
//   terminationStateParm *(COMMA terminationStateParm) RBRKT
terminationStateDescriptor:
	TerminationStateToken '{' terminationStateParmList '}'
	{ bld(yylex).terminationState($3) }

terminationStateParmList:
	terminationStateParm                              { $$ = 1 }
|	terminationStateParmList ',' terminationStateParm { $$ = $1 + 1 }

// terminationStateParm = (propertyParm / serviceStates / eventBufferControl)
// serviceStates = ServiceStatesToken EQUAL serviceStatesValue
// eventBufferControl = BufferToken EQUAL eventBufferControlValue
terminationStateParm:
	propertyParm                               { bld(yylex).param(pProperty, span{}, 0) }
|	ServiceStatesToken '=' serviceStatesValue  { bld(yylex).param(pServiceState, $1, uint32($3)) }
|	BufferToken '=' eventBufferControlValue    { bld(yylex).param(pBuffer, $1, uint32($3)) }

serviceStatesValue:
	TestToken     { $$ = int(model.ServiceState_Test) }
|	OutOfSvcToken { $$ = int(model.ServiceState_OutOfSvc) }
|	InSvcToken    { $$ = int(model.ServiceState_InSvc) }

// eventBufferControlValue = ("OFF" / LockStepToken)
eventBufferControlValue:
	SafeChars     { $$ = bld(yylex).off($1) }
|	LockStepToken { $$ = int(model.EventBufferControl_LockStep) }

// muxDescriptor = MuxToken EQUAL MuxType terminationIDList
muxDescriptor:
	MuxToken '=' muxType terminationIDList { bld(yylex).muxDescriptor($3, $4) }

// MuxType = (H221Token / H223Token / H226Token / V76Token /
//            extensionParameter / Nx64kToken)
muxType:
	H221Token   { $$ = int(model.MuxType_H221) }
|	H223Token   { $$ = int(model.MuxType_H223) }
|	H226Token   { $$ = int(model.MuxType_H226) }
|	V76Token    { $$ = int(model.MuxType_V76) }
|	Nx64kToken  { bld(yylex).need(2, $1, "Nx64Kservice"); $$ = int(model.MuxType_Nx64k) }
|	SafeChars   { bld(yylex).noModelField($1, "an extension mux type"); $$ = 0 }

// eventsDescriptor = EventsToken [EQUAL RequestID LBRKT requestedEvent
//                    *(COMMA requestedEvent) RBRKT]
eventsDescriptor:
	EventsToken
	{ bld(yylex).eventsDescriptor(span{}, false, 0) }
|	EventsToken '=' SafeChars '{' requestedEventList '}'
	{ bld(yylex).eventsDescriptor($3, true, $5) }

requestedEventList:
	requestedEvent                        { $$ = 1 }
|	requestedEventList ',' requestedEvent { $$ = $1 + 1 }

// requestedEvent = pkgdName [LBRKT eventParameter *(COMMA eventParameter)
//                  RBRKT]
requestedEvent:
	pkgdName                                { bld(yylex).requestedEvent($1, 0) }
|	pkgdName '{' eventParameterList '}'     { bld(yylex).requestedEvent($1, $3) }

eventParameterList:
	eventParameter                        { $$ = 1 }
|	eventParameterList ',' eventParameter { $$ = $1 + 1 }

// eventParameter = (embedWithSig / embedNoSig / KeepActiveToken / eventDM /
//                   eventStream / eventOther / notifyBehaviour /
//                   ResetEventsDescriptorToken)
eventParameter:
	embedWithSig                { bld(yylex).param(pEmbed, span{}, 0) }
|	embedNoSig                  { bld(yylex).param(pEmbed, span{}, 0) }
|	KeepActiveToken             { bld(yylex).param(pKeepActive, $1, 0) }
|	eventDM                     { bld(yylex).param(pEventDM, span{}, 0) }
|	eventStream                 { bld(yylex).param(pStream, $1, 0) }
|	eventOther                  { bld(yylex).param(pEventParameter, span{}, 0) }
|	notifyBehaviour             { bld(yylex).param(pNotifyBehaviour, span{}, 0) }
|	ResetEventsDescriptorToken  { bld(yylex).need(3, $1, "ResetEventsDescriptor"); bld(yylex).param(pResetEvents, $1, 0) }

// notifyBehaviour = NeverNotifyToken / NotifyImmediateToken /
//                   notifyRegulated
// notifyRegulated = NotifyRegulatedToken [LBRKT (embedWithSig / embedNoSig)
//                   RBRKT]
notifyBehaviour:
	NeverNotifyToken                         { bld(yylex).notifyBehaviour($1, model.NotifyBehaviour_NeverNotify, false) }
|	NotifyImmediateToken                     { bld(yylex).notifyBehaviour($1, model.NotifyBehaviour_NotifyImmediate, false) }
|	NotifyRegulatedToken                     { bld(yylex).notifyBehaviour($1, model.NotifyBehaviour_NotifyRegulated, false) }
|	NotifyRegulatedToken '{' embedWithSig '}' { bld(yylex).notifyBehaviour($1, model.NotifyBehaviour_NotifyRegulated, true) }
|	NotifyRegulatedToken '{' embedNoSig '}'   { bld(yylex).notifyBehaviour($1, model.NotifyBehaviour_NotifyRegulated, true) }

// embedWithSig = EmbedToken LBRKT signalsDescriptor [COMMA embedFirst] RBRKT
// embedNoSig = EmbedToken LBRKT embedFirst RBRKT
// embedSig = EmbedToken LBRKT signalsDescriptor RBRKT
embedWithSig:
	EmbedToken '{' signalsDescriptor '}'                { bld(yylex).embed($3, false) }
|	EmbedToken '{' signalsDescriptor ',' embedFirst '}' { bld(yylex).embed($3, true) }

embedNoSig:
	EmbedToken '{' embedFirst '}' { bld(yylex).embed(-1, true) }

// embedFirst = EventsToken [EQUAL RequestID LBRKT secondRequestedEvent
//              *(COMMA secondRequestedEvent) RBRKT]
embedFirst:
	EventsToken
	{ bld(yylex).secondEvents(span{}, false, 0) }
|	EventsToken '=' SafeChars '{' secondRequestedEventList '}'
	{ bld(yylex).secondEvents($3, true, $5) }

secondRequestedEventList:
	secondRequestedEvent                              { $$ = 1 }
|	secondRequestedEventList ',' secondRequestedEvent { $$ = $1 + 1 }

// secondRequestedEvent = pkgdName [LBRKT secondEventParameter
//                        *(COMMA secondEventParameter) RBRKT]
secondRequestedEvent:
	pkgdName                                   { bld(yylex).secondRequestedEvent($1, 0) }
|	pkgdName '{' secondEventParameterList '}'  { bld(yylex).secondRequestedEvent($1, $3) }

secondEventParameterList:
	secondEventParameter                              { $$ = 1 }
|	secondEventParameterList ',' secondEventParameter { $$ = $1 + 1 }

// secondEventParameter = (embedSig / KeepActiveToken / eventDM /
//   eventStream / eventOther / notifyBehaviour / ResetEventsDescriptorToken)
secondEventParameter:
	EmbedToken '{' signalsDescriptor '}' { bld(yylex).embed($3, false); bld(yylex).param(pEmbed, $1, 0) }
|	KeepActiveToken                      { bld(yylex).param(pKeepActive, $1, 0) }
|	eventDM                              { bld(yylex).param(pEventDM, span{}, 0) }
|	eventStream                          { bld(yylex).param(pStream, $1, 0) }
|	eventOther                           { bld(yylex).param(pEventParameter, span{}, 0) }
|	notifyBehaviour                      { bld(yylex).param(pNotifyBehaviour, span{}, 0) }
|	ResetEventsDescriptorToken           { bld(yylex).need(3, $1, "ResetEventsDescriptor"); bld(yylex).param(pResetEvents, $1, 0) }

// eventStream = StreamToken EQUAL StreamID
eventStream:
	StreamToken '=' SafeChars { $$ = $3 }

// eventOther = eventParameterName parmValue
eventOther:
	eventParameterName parmValue { bld(yylex).eventParameter($1, $2) }

// eventParameterName = NAME
eventParameterName:
	SafeChars
|	paramKeyword

// eventDM = DigitMapToken EQUAL ((digitMapName) / (LBRKT digitMapValue
//           RBRKT))
eventDM:
	DigitMapToken '=' SafeChars               { bld(yylex).eventDM($3, false) }
|	DigitMapToken '=' '{' digitMapValue '}'   { bld(yylex).eventDM(span{}, true) }

// signalsDescriptor = SignalsToken [LBRKT signalParm *(COMMA signalParm)
//                     RBRKT]
// (v1 and v2 always have the braces, and allow them empty)
signalsDescriptor:
	SignalsToken                        { $$ = 0 }
|	SignalsToken '{' '}'                { $$ = 0 }
|	SignalsToken '{' signalParmList '}' { $$ = $3 }

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
	pkgdName                              { bld(yylex).signal($1, 0) }
|	pkgdName '{' sigParameterList '}'     { bld(yylex).signal($1, $3) }

// signalList = SignalListToken EQUAL signalListId LBRKT signalListParm
//              *(COMMA signalListParm) RBRKT
signalList:
	SignalListToken '=' SafeChars '{' signalListParmList '}'
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
	StreamToken '=' SafeChars          { bld(yylex).param(pStream, $3, 0) }
|	SignalTypeToken '=' signalType     { bld(yylex).param(pSignalType, $1, uint32($3)) }
|	DurationToken '=' SafeChars        { bld(yylex).param(pDuration, $3, 0) }
|	eventParameterName parmValue       { bld(yylex).sigParameter($1, $2) }
|	NotifyCompletionToken '=' '{' notificationReasons '}'
	{ bld(yylex).param(pNotifyCompletion, $1, uint32($4)) }
|	KeepActiveToken                    { bld(yylex).param(pKeepActive, $1, 0) }
|	DirectionToken '=' direction       { bld(yylex).need(3, $1, "SPADirection"); bld(yylex).param(pDirection, $1, uint32($3)) }
|	RequestIDToken '=' SafeChars       { bld(yylex).need(3, $1, "SPARequestID"); bld(yylex).param(pRequestID, $3, 0) }
|	IntsigDelayToken '=' SafeChars     { bld(yylex).need(3, $1, "Intersignal"); bld(yylex).param(pIntersigDelay, $3, 0) }

// signalType = (OnOffToken / TimeOutToken / BriefToken)
signalType:
	OnOffToken   { $$ = int(model.SignalType_OnOff) }
|	TimeOutToken { $$ = int(model.SignalType_TimeOut) }
|	BriefToken   { $$ = int(model.SignalType_Brief) }

// direction = ExternalToken / InternalToken / BothToken
direction:
	ExternalToken { $$ = int(model.SignalDirection_External) }
|	InternalToken { $$ = int(model.SignalDirection_Internal) }
|	BothToken     { $$ = int(model.SignalDirection_Both) }

// $$ is the NotifyCompletion BIT STRING.
notificationReasons:
	notificationReason                         { $$ = 1 << $1 }
|	notificationReasons ',' notificationReason { $$ = $1 | 1<<$3 }

// notificationReason = (TimeOutToken / InterruptByEventToken /
//   InterruptByNewSignalsDescrToken / OtherReasonToken / IterationToken)
notificationReason:
	TimeOutToken                    { $$ = 0 }
|	InterruptByEventToken           { $$ = 1 }
|	InterruptByNewSignalsDescrToken { $$ = 2 }
|	OtherReasonToken                { $$ = 3 }
|	IterationToken                  { bld(yylex).need(3, $1, "Iteration"); $$ = 4 }

// observedEventsDescriptor = ObservedEventsToken EQUAL RequestID LBRKT
//                            observedEvent *(COMMA observedEvent) RBRKT
observedEventsDescriptor:
	ObservedEventsToken '=' SafeChars '{' observedEventList '}'
	{ bld(yylex).observedEvents($3, $5) }

observedEventList:
	observedEvent                       { $$ = 1 }
|	observedEventList ',' observedEvent { $$ = $1 + 1 }

// observedEvent = [TimeStamp LWSP COLON] LWSP pkgdName
//                 [LBRKT observedEventParameter
//                 *(COMMA observedEventParameter) RBRKT]
observedEvent:
	pkgdName
	{ bld(yylex).observedEvent(span{}, $1, 0) }
|	pkgdName '{' observedEventParameterList '}'
	{ bld(yylex).observedEvent(span{}, $1, $3) }
|	SafeChars ':' pkgdName
	{ bld(yylex).observedEvent($1, $3, 0) }
|	SafeChars ':' pkgdName '{' observedEventParameterList '}'
	{ bld(yylex).observedEvent($1, $3, $5) }

observedEventParameterList:
	observedEventParameter                                { $$ = 1 }
|	observedEventParameterList ',' observedEventParameter { $$ = $1 + 1 }

// observedEventParameter = eventStream / eventOther
observedEventParameter:
	eventStream { bld(yylex).param(pStream, $1, 0) }
|	eventOther  { bld(yylex).param(pEventParameter, span{}, 0) }

// modemDescriptor = ModemToken ((EQUAL modemType) / (LSBRKT modemType
//                   *(COMMA modemType) RSBRKT)) [LBRKT propertyParm
//                   *(COMMA propertyParm) RBRKT]
modemDescriptor:
	ModemToken '=' modemType modemProperties
	{ bld(yylex).modemType($3); bld(yylex).modemDescriptor(1, $4) }
|	ModemToken '[' modemTypeList ']' modemProperties
	{ bld(yylex).modemDescriptor($3, $5) }

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
	V32bisToken    { $$ = int(model.ModemType_V32bis) }
|	V22bisToken    { $$ = int(model.ModemType_V22bis) }
|	V18Token       { $$ = int(model.ModemType_V18) }
|	V22Token       { $$ = int(model.ModemType_V22) }
|	V32Token       { $$ = int(model.ModemType_V32) }
|	V34Token       { $$ = int(model.ModemType_V34) }
|	V90Token       { $$ = int(model.ModemType_V90) }
|	V91Token       { $$ = int(model.ModemType_V91) }
|	SynchISDNToken { $$ = int(model.ModemType_SynchISDN) }
|	SafeChars      { bld(yylex).noModelField($1, "an extension modem type"); $$ = 0 }

propertyParmList:
	propertyParm                      { $$ = 1 }
|	propertyParmList ',' propertyParm { $$ = $1 + 1 }

// digitMapDescriptor = DigitMapToken EQUAL ((LBRKT digitMapValue RBRKT) /
//                      (digitMapName [LBRKT digitMapValue RBRKT]))
digitMapDescriptor:
	DigitMapToken '=' '{' digitMapValue '}'
	{ bld(yylex).digitMapDescriptor(span{}, true) }
|	DigitMapToken '=' SafeChars
	{ bld(yylex).digitMapDescriptor($3, false) }
|	DigitMapToken '=' SafeChars '{' digitMapValue '}'
	{ bld(yylex).digitMapDescriptor($3, true) }

// digitMapValue = ["T" COLON Timer COMMA] ["S" COLON Timer COMMA]
//                 ["L" COLON Timer COMMA] ["Z" COLON Timer COMMA] digitMap
digitMapValue:
	digitMapTimers DigitMapBody { bld(yylex).digitMapValue($1, $2) }

digitMapTimers:
	/* none */                         { $$ = 0 }
|	digitMapTimers DigitMapTimer ','   { bld(yylex).param(pTimer, $2, 0); $$ = $1 + 1 }

// serviceChangeDescriptor = ServicesToken LBRKT serviceChangeParm
//                           *(COMMA serviceChangeParm) RBRKT
serviceChangeDescriptor:
	ServicesToken '{' serviceChangeParmList '}' { bld(yylex).serviceChangeParm($1, $3) }

serviceChangeParmList:
	serviceChangeParm                           { $$ = 1 }
|	serviceChangeParmList ',' serviceChangeParm { $$ = $1 + 1 }

// serviceChangeParm = (serviceChangeMethod / serviceChangeReason /
//   serviceChangeDelay / serviceChangeAddress / serviceChangeProfile /
//   extension / TimeStamp / serviceChangeMgcId / serviceChangeVersion /
//   ServiceChangeIncompleteToken / auditItem)
serviceChangeParm:
	MethodToken '=' serviceChangeMethodValue  { bld(yylex).param(pMethod, $1, uint32($3)) }
|	ReasonToken '=' value                     { bld(yylex).value($3); bld(yylex).param(pReason, $1, 0) }
|	DelayToken '=' SafeChars                  { bld(yylex).param(pDelay, $3, 0) }
|	serviceChangeAddress
|	ProfileToken '=' SafeChars                { bld(yylex).param(pProfile, $3, 0) }
|	SafeChars parmValue                       { bld(yylex).extension($1, $2) }
|	SafeChars                                 { bld(yylex).param(pTimeStamp, $1, 0) }
|	MgcIdToken '=' mId                        { bld(yylex).param(pMgcID, $3, 0) }
|	VersionToken '=' SafeChars                { bld(yylex).param(pVersion, $3, 0) }
|	ServiceChangeIncompleteToken              { bld(yylex).need(3, $1, "ServiceChangeInc"); bld(yylex).param(pIncomplete, $1, 0) }
|	auditItem

// serviceChangeAddress = ServiceChangeAddressToken EQUAL (mId / portNumber)
serviceChangeAddress:
	ServiceChangeAddressToken '=' mId { bld(yylex).param(pAddress, $3, 0) }

// serviceChangeMethod = MethodToken EQUAL (FailoverToken / ForcedToken /
//   GracefulToken / RestartToken / DisconnectedToken / HandOffToken /
//   extensionParameter)
serviceChangeMethodValue:
	FailoverToken     { $$ = int(model.ServiceChangeMethod_Failover) }
|	ForcedToken       { $$ = int(model.ServiceChangeMethod_Forced) }
|	GracefulToken     { $$ = int(model.ServiceChangeMethod_Graceful) }
|	RestartToken      { $$ = int(model.ServiceChangeMethod_Restart) }
|	DisconnectedToken { $$ = int(model.ServiceChangeMethod_Disconnected) }
|	HandOffToken      { $$ = int(model.ServiceChangeMethod_HandOff) }
|	SafeChars         { bld(yylex).noModelField($1, "an extension ServiceChange method"); $$ = 0 }

// serviceChangeReplyDescriptor = ServicesToken LBRKT servChgReplyParm
//                                *(COMMA servChgReplyParm) RBRKT
serviceChangeReplyDescriptor:
	ServicesToken '{' servChgReplyParmList '}' { bld(yylex).serviceChangeResParm($3) }

servChgReplyParmList:
	servChgReplyParm                          { $$ = 1 }
|	servChgReplyParmList ',' servChgReplyParm { $$ = $1 + 1 }

// servChgReplyParm = (serviceChangeAddress / serviceChangeMgcId /
//   serviceChangeProfile / serviceChangeVersion / TimeStamp)
servChgReplyParm:
	serviceChangeAddress
|	MgcIdToken '=' mId          { bld(yylex).param(pMgcID, $3, 0) }
|	ProfileToken '=' SafeChars  { bld(yylex).param(pProfile, $3, 0) }
|	VersionToken '=' SafeChars  { bld(yylex).param(pVersion, $3, 0) }
|	SafeChars                   { bld(yylex).param(pTimeStamp, $1, 0) }

// packagesDescriptor = PackagesToken LBRKT packagesItem
//                      *(COMMA packagesItem) RBRKT
packagesDescriptor:
	PackagesToken '{' packagesItemList '}' { $$ = $3 }

packagesItemList:
	packagesItem                      { $$ = 1 }
|	packagesItemList ',' packagesItem { $$ = $1 + 1 }

// packagesItem = NAME "-" UINT16
packagesItem:
	SafeChars { bld(yylex).packagesItem($1) }

// statisticsDescriptor = StatsToken LBRKT statisticsParameter
//                        *(COMMA statisticsParameter) RBRKT
statisticsDescriptor:
	StatsToken '{' statisticsParameterList '}' { $$ = $3 }

statisticsParameterList:
	statisticsParameter                             { $$ = 1 }
|	statisticsParameterList ',' statisticsParameter { $$ = $1 + 1 }

// statisticsParameter = pkgdName [EQUAL VALUE / (LSBRKT VALUE
//                       *(COMMA VALUE) RSBRKT)]
statisticsParameter:
	pkgdName                      { bld(yylex).statistic($1, -1) }
|	pkgdName '=' value            { bld(yylex).value($3); bld(yylex).statistic($1, 1) }
|	pkgdName '=' '[' valueList ']' { bld(yylex).statistic($1, $4) }

// pkgdName = (PackageName SLASH ItemID) / (PackageName SLASH "*") /
//            ("*" SLASH "*"): one SafeChars word.
pkgdName:
	SafeChars

// Keywords that may stand for a name. termKeyword leaves out those that
// could stand where a termination ID may in a Topology descriptor;
// paramKeyword those that start a signal or event parameter of their own
// with "=".
termKeyword:
	termKeywordNoCtx
|	CtxToken

termKeywordNoCtx:
	keywordName
|	SignalTypeToken | DurationToken | NotifyCompletionToken | DirectionToken
|	RequestIDToken | IntsigDelayToken | DigitMapToken | ErrorToken

paramKeyword:
	keywordName
|	CtxToken | ErrorToken | BothwayToken | IsolateToken | OnewayToken
|	OnewayBothToken | OnewayExternalToken

anyKeyword:
	termKeyword
|	BothwayToken | IsolateToken | OnewayToken | OnewayBothToken
|	OnewayExternalToken | StreamToken

keywordName:
	AddToken | AndAUDITSelectToken | AuditCapToken | AuditToken
|	AuditValueToken | AuthToken | BothToken | BriefToken
|	BufferToken | ContextAttrToken | ContextAuditToken | ContextListToken
|	DelayToken | DisconnectedToken | EmbedToken | EmergencyOffToken
|	EmergencyToken | EmergencyValueToken | EventBufferToken
|	EventsToken | ExternalToken | FailoverToken | ForcedToken
|	GracefulToken | H221Token | H223Token | H226Token | HandOffToken
|	IEPSToken | ImmAckRequiredToken | InactiveToken | InSvcToken
|	InternalToken | InterruptByEventToken
|	InterruptByNewSignalsDescrToken | IterationToken
|	KeepActiveToken | LocalControlToken | LocalToken
|	LockStepToken | LoopbackToken | MediaToken | MessageSegmentToken
|	MethodToken | MgcIdToken | ModemToken | ModeToken | ModifyToken
|	MoveToken | MuxToken | NeverNotifyToken
|	NotifyImmediateToken | NotifyRegulatedToken
|	NotifyToken | Nx64kToken | ObservedEventsToken
|	OnOffToken | OrAUDITselectToken
|	OtherReasonToken | OutOfSvcToken | PackagesToken | PendingToken
|	PriorityToken | ProfileToken | ReasonToken | RecvonlyToken
|	RemoteToken | ReplyToken | ReservedGroupToken
|	ReservedValueToken | ResetEventsDescriptorToken | ResponseAckToken
|	RestartToken | SendonlyToken | SendrecvToken
|	ServiceChangeAddressToken | ServiceChangeIncompleteToken
|	ServiceChangeToken | ServiceStatesToken | ServicesToken
|	SignalListToken | SignalsToken | StatsToken
|	SubtractToken | SynchISDNToken | TerminationStateToken
|	TestToken | TimeOutToken | TopologyToken | TransToken | V18Token
|	V22bisToken | V22Token | V32bisToken | V32Token | V34Token | V76Token
|	V90Token | V91Token | VersionToken

%%
