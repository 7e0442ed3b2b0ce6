package text

import (
	_ "embed"
	"strconv"
	"strings"
)

// The keywords of the text encoding come from text-tokens.tsv, in this
// package: every "...Token" rule of the v1, v2 and v3 ABNF with its long
// (pretty) and short (compact) spelling and the first version whose
// grammar has it (its header says how it was made). The file is the
// source: the encoder refers to the keywords by the word constants below,
// and init fills their spellings from the table, so a spelling is never
// typed twice.

//go:embed text-tokens.tsv
var tokenTable string

// word is a keyword of the text encoding.
type word uint8

const (
	wAdd word = iota
	wAndAUDITSelect
	wAuditCap
	wAudit
	wAuditValue
	wAuth
	wBoth
	wBothway
	wBrief
	wBuffer
	wContextAttr
	wContextAudit
	wContextList
	wCtx
	wDelay
	wDigitMap
	wDirection
	wDisconnected
	wDuration
	wEmbed
	wEmergencyOff
	wEmergency
	wEmergencyValue
	wError
	wEventBuffer
	wEvents
	wExternal
	wFailover
	wForced
	wGraceful
	wH221
	wH223
	wH226
	wHandOff
	wIEPS
	wImmAckRequired
	wInactive
	wInSvc
	wInternal
	wInterruptByEvent
	wInterruptByNewSignalsDescr
	wIntsigDelay
	wIsolate
	wIteration
	wKeepActive
	wLocalControl
	wLocal
	wLockStep
	wLoopback
	wMedia
	wMegacop
	wMessageSegment
	wMethod
	wMgcId
	wModem
	wMode
	wModify
	wMove
	wMTP
	wMux
	wNeverNotify
	wNotifyCompletion
	wNotifyImmediate
	wNotifyRegulated
	wNotify
	wNx64k
	wObservedEvents
	wOnewayBoth
	wOnewayExternal
	wOneway
	wOnOff
	wOrAUDITselect
	wOtherReason
	wOutOfSvc
	wPackages
	wPending
	wPriority
	wProfile
	wReason
	wRecvonly
	wRemote
	wReply
	wRequestID
	wReservedGroup
	wReservedValue
	wResetEventsDescriptor
	wResponseAck
	wRestart
	wSegmentationComplete
	wSendonly
	wSendrecv
	wServiceChangeAddress
	wServiceChangeIncomplete
	wServiceChange
	wServiceStates
	wServices
	wSignalList
	wSignals
	wSignalType
	wStats
	wStream
	wSubtract
	wSynchISDN
	wTerminationState
	wTest
	wTimeOut
	wTopology
	wTrans
	wV18
	wV22bis
	wV22
	wV32bis
	wV32
	wV34
	wV76
	wV90
	wV91
	wVersion
	nWords
)

// wordRules names each word's ABNF rule, in the order of the constants.
var wordRules = [nWords]string{
	"AddToken", "AndAUDITSelectToken", "AuditCapToken", "AuditToken", "AuditValueToken",
	"AuthToken", "BothToken", "BothwayToken", "BriefToken", "BufferToken",
	"ContextAttrToken", "ContextAuditToken", "ContextListToken", "CtxToken", "DelayToken",
	"DigitMapToken", "DirectionToken", "DisconnectedToken", "DurationToken", "EmbedToken",
	"EmergencyOffToken", "EmergencyToken", "EmergencyValueToken", "ErrorToken", "EventBufferToken",
	"EventsToken", "ExternalToken", "FailoverToken", "ForcedToken", "GracefulToken",
	"H221Token", "H223Token", "H226Token", "HandOffToken", "IEPSToken",
	"ImmAckRequiredToken", "InactiveToken", "InSvcToken", "InternalToken", "InterruptByEventToken",
	"InterruptByNewSignalsDescrToken", "IntsigDelayToken", "IsolateToken", "IterationToken", "KeepActiveToken",
	"LocalControlToken", "LocalToken", "LockStepToken", "LoopbackToken", "MediaToken",
	"MegacopToken", "MessageSegmentToken", "MethodToken", "MgcIdToken", "ModemToken",
	"ModeToken", "ModifyToken", "MoveToken", "MTPToken", "MuxToken",
	"NeverNotifyToken", "NotifyCompletionToken", "NotifyImmediateToken", "NotifyRegulatedToken", "NotifyToken",
	"Nx64kToken", "ObservedEventsToken", "OnewayBothToken", "OnewayExternalToken", "OnewayToken",
	"OnOffToken", "OrAUDITselectToken", "OtherReasonToken", "OutOfSvcToken", "PackagesToken",
	"PendingToken", "PriorityToken", "ProfileToken", "ReasonToken", "RecvonlyToken",
	"RemoteToken", "ReplyToken", "RequestIDToken", "ReservedGroupToken", "ReservedValueToken",
	"ResetEventsDescriptorToken", "ResponseAckToken", "RestartToken", "SegmentationCompleteToken", "SendonlyToken",
	"SendrecvToken", "ServiceChangeAddressToken", "ServiceChangeIncompleteToken", "ServiceChangeToken", "ServiceStatesToken",
	"ServicesToken", "SignalListToken", "SignalsToken", "SignalTypeToken", "StatsToken",
	"StreamToken", "SubtractToken", "SynchISDNToken", "TerminationStateToken", "TestToken",
	"TimeOutToken", "TopologyToken", "TransToken", "V18Token", "V22bisToken",
	"V22Token", "V32bisToken", "V32Token", "V34Token", "V76Token",
	"V90Token", "V91Token", "VersionToken",
}

// wordSpelling holds, per style, the spelling of every word; wordSince
// the first protocol version whose grammar has it.
var (
	wordSpelling [2][nWords]string
	wordSince    [nWords]uint8
)

// otpSpelling lists the spellings Erlang/OTP's encoders use where they
// differ from the grammar: OTP writes AndAUDITSelectToken as "ANSLgc"
// (megaco_text_tokens.hrl; its scanner accepts the ABNF's "ANDLgc" too).
// The encoder never writes the AND token (an empty selection logic means
// AND), so this only keeps the table honest.
var otpSpelling = map[word]string{wAndAUDITSelect: "ANSLgc"}

func init() {
	rule := make(map[string]word, nWords)
	for w, r := range wordRules {
		rule[r] = word(w)
	}
	seen := 0
	for line := range strings.SplitSeq(tokenTable, "\n") {
		if line == "" || line[0] == '#' || strings.HasPrefix(line, "token_rule\t") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) < 4 {
			panic("text: bad line in text-tokens.tsv: " + line)
		}
		w, ok := rule[f[0]]
		if !ok {
			continue // a token the encoder never writes
		}
		v, err := strconv.Atoi(f[3])
		if err != nil || v < 1 || v > 3 {
			panic("text: bad version in text-tokens.tsv: " + line)
		}
		long, short := f[1], f[2]
		if short == "" {
			short = long
		}
		if s, ok := otpSpelling[w]; ok {
			long, short = s, s
		}
		wordSpelling[Pretty][w], wordSpelling[Compact][w], wordSince[w] = long, short, uint8(v)
		seen++
	}
	if seen != int(nWords) {
		for w, r := range wordRules {
			if wordSpelling[Pretty][w] == "" {
				panic("text: text-tokens.tsv lacks " + r)
			}
		}
	}
}
