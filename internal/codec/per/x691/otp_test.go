package x691

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"megaco/internal/corpus"
)

// These tests check the runtime against real encodings made by Erlang/OTP's
// megaco_per_encoder (asn1 "per", i.e. ALIGNED PER), from the otp-time-test
// corpus. They play the role of generated code: a table of steps, one per
// field, in the order of the ASN.1 definitions of MEDIA-GATEWAY-CONTROL-v1/v3.
// Decoding must give the values in the message text, and encoding the same
// values must give OTP's octets back exactly.

// step is one field of a hand-written walk through a message.
type step struct {
	path string
	enc  func(e *Writer) error
	dec  func(d *Reader) (any, error)
	want any
}

func sBool(path string, v bool) step {
	return step{path, func(e *Writer) error { e.PutBool(v); return nil },
		func(d *Reader) (any, error) { return d.GetBool() }, v}
}

func sInt(path string, lb, ub, v int64) step {
	return step{path, func(e *Writer) error { return e.PutConstrained(v, lb, ub) },
		func(d *Reader) (any, error) { return d.GetConstrained(lb, ub) }, v}
}

func sChoice(path string, root int, ext bool, index int) step {
	return step{path, func(e *Writer) error { return e.PutChoiceIndex(index, root, ext) },
		func(d *Reader) (any, error) { i, _, err := d.GetChoiceIndex(root, ext); return i, err }, index}
}

// sCount is the count of an unconstrained SEQUENCE OF (all of H.248's).
func sCount(path string, n int) step {
	return step{path, func(e *Writer) error { _, _, err := e.PutLength(n, 0, Unbounded, false); return err },
		func(d *Reader) (any, error) { k, _, err := d.GetLength(0, Unbounded, false, 1); return k, err }, n}
}

func sOctets(path string, lb, ub int, b []byte) step {
	return step{path, func(e *Writer) error { return e.PutOctetString(b, lb, ub, false) },
		func(d *Reader) (any, error) { return d.GetOctetString(lb, ub, false) }, b}
}

func sIA5(path string, lb, ub int, s string) step {
	return step{path, func(e *Writer) error { return e.PutIA5String(s, lb, ub, false) },
		func(d *Reader) (any, error) { b, err := d.GetIA5String(lb, ub, false); return string(b), err }, s}
}

func runDecode(t *testing.T, d *Reader, steps []step) {
	t.Helper()
	for _, s := range steps {
		at := d.BitOffset()
		got, err := s.dec(d)
		if err != nil {
			t.Fatalf("%s: %v", s.path, err)
		}
		if !equalVal(got, s.want) {
			t.Fatalf("%s (bit %d): got %v, want %v", s.path, at, got, s.want)
		}
	}
}

func runEncode(t *testing.T, e *Writer, steps []step) {
	t.Helper()
	for _, s := range steps {
		if err := s.enc(e); err != nil {
			t.Fatalf("%s: %v", s.path, err)
		}
	}
}

// msg03 is msg03.per: OTP's ALIGNED PER encoding of this v1 message
// (msg03.pretty.txt):
//
//	MEGACO/1 [124.124.124.222]:55555
//	Transaction = 10000 {
//		Context = - {
//			Notify = 11111111/00000000/00000000 {
//				ObservedEvents = 2222 {
//					19990729T22000000:al/of
//	}}}}}
var msg03 = []byte{
	0x00, 0x84, 0x7c, 0x7c, 0x7c, 0xde, 0xd9, 0x03, 0x80, 0x01, 0x04, 0x27, 0x10,
	0x01, 0x00, 0x00, 0x01, 0x0c, 0x00, 0x01, 0x00, 0x00, 0x40, 0xff, 0x00, 0x00,
	0x40, 0x08, 0xae, 0x01, 0x20, 0x00, 0x09, 0x00, 0x05, 0x00, 0x31, 0x39, 0x39,
	0x39, 0x30, 0x37, 0x32, 0x39, 0x32, 0x32, 0x30, 0x30, 0x30, 0x30, 0x30, 0x30,
}

// msg03Steps walks msg03 bit by bit. Octet by octet:
//
//	00       0 MegacoMessage.authHeader absent (the only OPTIONAL: 1 preamble bit)
//	         0 Message extension bit (Message has "...")
//	         000000 version INTEGER(0..99): range 100 -> 7 bits, first 6 ...
//	84       1 ... last bit: version = 0000001 = 1
//	         0 mId: MId CHOICE extension bit
//	         000 mId index, 5 root alternatives -> 3 bits: 0 = ip4Address
//	         1 IP4Address preamble: portNumber present
//	         00 padding: address OCTET STRING (SIZE(4)) is > 2 octets -> aligned
//	7c7c7cde address 124.124.124.222, no length (fixed size)
//	d903     portNumber INTEGER(0..65535): range 64K -> 2 aligned octets = 55555
//	80       1 messageBody CHOICE (2 alternatives, no "...") -> 1 bit: transactions
//	         0000000 padding: SEQUENCE OF count is an unconstrained length
//	01       1 Transaction
//	04       0 Transaction CHOICE extension bit; 00 transactionRequest;
//	         0 TransactionRequest extension bit;
//	         01 transactionId INTEGER(0..4294967295): range > 64K -> octet
//	         count 1..4 as 2 bits: 01 = 2 octets; 00 padding
//	2710     transactionId = 10000
//	01       actions: 1 ActionRequest
//	00       00 contextRequest, contextAttrAuditReq absent; 00 contextId
//	         count = 1 octet; padding
//	00       contextId = 0 (the NULL context "-")
//	01       commandRequests: 1 CommandRequest
//	0c       0 CommandRequest extension bit; 00 optional, wildcardReturn
//	         absent; 0 Command extension bit; 110 index 6 of 8 = notifyReq;
//	         0 NotifyRequest extension bit
//	00       0 errorDescriptor absent; padding
//	01       terminationID: 1 TerminationID
//	00       0 TerminationID extension bit; padding
//	00       wildcard: 0 WildcardFields
//	40       id OCTET STRING (SIZE(1..8)): length-1 in 3 bits 010 = 3; padding
//	ff0000   id (OTP's binary form of 11111111/00000000/00000000)
//	40       requestId INTEGER(0..4294967295): 01 = 2 octets; padding
//	08ae     requestId = 2222
//	01       observedEventLst: 1 ObservedEvent
//	20       0 extension bit; 0 streamID absent; 1 timeNotation present; padding
//	00090005 eventName PkgdName OCTET STRING (SIZE(4)): package al (9), event of (5)
//	00       eventParList: 0 EventParameters
//	31..39   date IA5String (SIZE(8)): 8 chars x 8 bits = 64 > 16 -> aligned, no length: "19990729"
//	32..30   time IA5String (SIZE(8)): "22000000"
func msg03Steps() []step {
	return []step{
		sBool("authHeader present", false),
		sBool("mess.<ext>", false),
		sInt("mess.version", 0, 99, 1),
		sChoice("mess.mId", 5, true, 0),
		sBool("mess.mId.ip4Address.portNumber present", true),
		sOctets("mess.mId.ip4Address.address", 4, 4, []byte{124, 124, 124, 222}),
		sInt("mess.mId.ip4Address.portNumber", 0, 65535, 55555),
		sChoice("mess.messageBody", 2, false, 1),
		sCount("mess.messageBody.transactions", 1),
		sChoice("transactions[0]", 4, true, 0),
		sBool("transactionRequest.<ext>", false),
		sInt("transactionRequest.transactionId", 0, 4294967295, 10000),
		sCount("transactionRequest.actions", 1),
		sBool("actions[0].contextRequest present", false),
		sBool("actions[0].contextAttrAuditReq present", false),
		sInt("actions[0].contextId", 0, 4294967295, 0),
		sCount("actions[0].commandRequests", 1),
		sBool("commandRequests[0].<ext>", false),
		sBool("commandRequests[0].optional present", false),
		sBool("commandRequests[0].wildcardReturn present", false),
		sChoice("commandRequests[0].command", 8, true, 6),
		sBool("notifyReq.<ext>", false),
		sBool("notifyReq.errorDescriptor present", false),
		sCount("notifyReq.terminationID", 1),
		sBool("terminationID[0].<ext>", false),
		sCount("terminationID[0].wildcard", 0),
		sOctets("terminationID[0].id", 1, 8, []byte{0xff, 0, 0}),
		sInt("observedEventsDescriptor.requestId", 0, 4294967295, 2222),
		sCount("observedEventsDescriptor.observedEventLst", 1),
		sBool("observedEventLst[0].<ext>", false),
		sBool("observedEventLst[0].streamID present", false),
		sBool("observedEventLst[0].timeNotation present", true),
		sOctets("observedEventLst[0].eventName", 4, 4, []byte{0x00, 0x09, 0x00, 0x05}),
		sCount("observedEventLst[0].eventParList", 0),
		sIA5("timeNotation.date", 8, 8, "19990729"),
		sIA5("timeNotation.time", 8, 8, "22000000"),
	}
}

func TestOTPMsg03(t *testing.T) {
	if !bytes.Equal(corpus.Read(t, "msg03.per"), msg03) {
		t.Fatalf("corpus msg03.per differs from the copy in this test")
	}
	steps := msg03Steps()
	d := NewReader(msg03)
	runDecode(t, &d, steps)
	if err := d.End(); err != nil {
		t.Fatal(err)
	}
	var e Writer
	e.Reset(nil)
	runEncode(t, &e, steps)
	if got := e.Finish(); !bytes.Equal(got, msg03) {
		t.Fatalf("re-encoded msg03:\n got %x\nwant %x", got, msg03)
	}
}

// TestOTPSegmentReply covers an extension alternative of a CHOICE carried
// as an open type: in v3, Transaction ::= CHOICE { 4 root alternatives,
// ..., segmentReply SegmentReply }. msg81b01.per ("Segment = 8102/1/END"):
//
//	01 84 7c7c7cde d903 80 01   as in msg03 but version = 3
//	80       1 Transaction CHOICE extension bit: an extension alternative;
//	         0000000 normally small index 0 (segmentReply)
//	05       open type length: 5 octets follow, a complete encoding:
//	50       0 SegmentReply extension bit; 1 segmentationComplete present;
//	         01 transactionId count = 2 octets; padding
//	1fa6     transactionId = 8102
//	0001     segmentNumber INTEGER(0..65535) = 1
//	         (segmentationComplete is a NULL: no bits)
func TestOTPSegmentReply(t *testing.T) {
	for _, tc := range []struct {
		file     string
		msg      []byte
		id, seg  int64
		complete bool
	}{
		{"msg81a01.per", []byte{0x01, 0x84, 0x7c, 0x7c, 0x7c, 0xde, 0xd9, 0x03, 0x80, 0x01, 0x80, 0x05, 0x10, 0x1f, 0xa5, 0x00, 0x01}, 8101, 1, false},
		{"msg81b01.per", []byte{0x01, 0x84, 0x7c, 0x7c, 0x7c, 0xde, 0xd9, 0x03, 0x80, 0x01, 0x80, 0x05, 0x50, 0x1f, 0xa6, 0x00, 0x01}, 8102, 1, true},
		{"msg81b03.per", []byte{0x01, 0x84, 0x7d, 0x7c, 0x7b, 0x7a, 0xd9, 0x03, 0x80, 0x01, 0x80, 0x05, 0x50, 0x1f, 0xa6, 0xff, 0xff}, 8102, 65535, true},
	} {
		t.Run(tc.file, func(t *testing.T) {
			if !bytes.Equal(corpus.Read(t, tc.file), tc.msg) {
				t.Fatalf("corpus %s differs from the copy in this test", tc.file)
			}
			head := []step{
				sBool("authHeader present", false),
				sBool("mess.<ext>", false),
				sInt("mess.version", 0, 99, 3),
				sChoice("mess.mId", 5, true, 0),
				sBool("portNumber present", true),
				sOctets("address", 4, 4, tc.msg[2:6]),
				sInt("portNumber", 0, 65535, 55555),
				sChoice("mess.messageBody", 2, false, 1),
				sCount("transactions", 1),
			}
			body := []step{
				sBool("segmentReply.<ext>", false),
				sBool("segmentReply.segmentationComplete present", tc.complete),
				sInt("segmentReply.transactionId", 0, 4294967295, tc.id),
				sInt("segmentReply.segmentNumber", 0, 65535, tc.seg),
			}
			d := NewReader(tc.msg)
			runDecode(t, &d, head)
			idx, isExt, err := d.GetChoiceIndex(4, true)
			if err != nil || idx != 4 || !isExt {
				t.Fatalf("transactions[0]: index %d ext %v, %v", idx, isExt, err)
			}
			sub, err := d.OpenType()
			if err != nil {
				t.Fatal(err)
			}
			if sub.BitOffset() != 12*8 {
				t.Fatalf("open type contents at bit %d, want 96", sub.BitOffset())
			}
			runDecode(t, &sub, body)
			if err := sub.End(); err != nil {
				t.Fatal(err)
			}
			if err := d.End(); err != nil {
				t.Fatal(err)
			}

			var e Writer
			e.Reset(make([]byte, 0, 64))
			runEncode(t, &e, head)
			if err := e.PutChoiceIndex(4, 4, true); err != nil {
				t.Fatal(err)
			}
			m := e.BeginOpenType()
			runEncode(t, &e, body)
			if err := e.EndOpenType(m); err != nil {
				t.Fatal(err)
			}
			if got := e.Finish(); !bytes.Equal(got, tc.msg) {
				t.Fatalf("re-encoded:\n got %x\nwant %x", got, tc.msg)
			}
		})
	}
}

// TestOTPMsg03NoAlloc: walking msg03 allocates nothing, encoding into a
// buffer that is large enough allocates nothing either.
func TestOTPMsg03NoAlloc(t *testing.T) {
	buf := make([]byte, 0, 128)
	allocs := testing.AllocsPerRun(100, func() {
		d := NewReader(msg03)
		if err := walkMsg03Direct(&d); err != nil {
			t.Fatal(err)
		}
		var e Writer
		e.Reset(buf[:0])
		encodeMsg03Direct(&e)
		if len(e.Finish()) != len(msg03) {
			t.Fatal("length")
		}
	})
	if allocs != 0 {
		t.Fatalf("decode+encode of msg03 allocated %v times", allocs)
	}
}

// walkMsg03Direct decodes msg03 the way generated code would, without the
// step table's interface boxing (errors are only checked at the end, where
// a wrong walk would leave data or have run out of it).
func walkMsg03Direct(d *Reader) error {
	_, _ = d.GetBool()
	_, _ = d.GetBool()
	_, _ = d.GetConstrained(0, 99)
	_, _, _ = d.GetChoiceIndex(5, true)
	_, _ = d.GetBool()
	_, _ = d.GetOctetString(4, 4, false)
	_, _ = d.GetConstrained(0, 65535)
	_, _, _ = d.GetChoiceIndex(2, false)
	_, _, _ = d.GetLength(0, Unbounded, false, 1)
	_, _, _ = d.GetChoiceIndex(4, true)
	_, _ = d.GetBool()
	_, _ = d.GetConstrained(0, 4294967295)
	_, _, _ = d.GetLength(0, Unbounded, false, 1)
	_, _ = d.GetBits(2)
	_, _ = d.GetConstrained(0, 4294967295)
	_, _, _ = d.GetLength(0, Unbounded, false, 1)
	_, _ = d.GetBits(3)
	_, _, _ = d.GetChoiceIndex(8, true)
	_, _ = d.GetBits(2)
	_, _, _ = d.GetLength(0, Unbounded, false, 1)
	_, _ = d.GetBool()
	_, _, _ = d.GetLength(0, Unbounded, false, 1)
	_, _ = d.GetOctetString(1, 8, false)
	_, _ = d.GetConstrained(0, 4294967295)
	_, _, _ = d.GetLength(0, Unbounded, false, 1)
	_, _ = d.GetBits(3)
	_, _ = d.GetOctetString(4, 4, false)
	_, _, _ = d.GetLength(0, Unbounded, false, 1)
	_, _ = d.GetIA5String(8, 8, false)
	if _, err := d.GetIA5String(8, 8, false); err != nil {
		return err
	}
	return d.End()
}

var (
	msg03Addr = []byte{124, 124, 124, 222}
	msg03ID   = []byte{0xff, 0, 0}
	msg03Evt  = []byte{0, 9, 0, 5}
)

func encodeMsg03Direct(e *Writer) {
	e.PutBool(false)
	e.PutBool(false)
	_ = e.PutConstrained(1, 0, 99)
	_ = e.PutChoiceIndex(0, 5, true)
	e.PutBool(true)
	_ = e.PutOctetString(msg03Addr, 4, 4, false)
	_ = e.PutConstrained(55555, 0, 65535)
	_ = e.PutChoiceIndex(1, 2, false)
	_, _, _ = e.PutLength(1, 0, Unbounded, false)
	_ = e.PutChoiceIndex(0, 4, true)
	e.PutBool(false)
	_ = e.PutConstrained(10000, 0, 4294967295)
	_, _, _ = e.PutLength(1, 0, Unbounded, false)
	e.PutBits(0, 2)
	_ = e.PutConstrained(0, 0, 4294967295)
	_, _, _ = e.PutLength(1, 0, Unbounded, false)
	e.PutBits(0, 3)
	_ = e.PutChoiceIndex(6, 8, true)
	e.PutBits(0, 2)
	_, _, _ = e.PutLength(1, 0, Unbounded, false)
	e.PutBool(false)
	_, _, _ = e.PutLength(0, 0, Unbounded, false)
	_ = e.PutOctetString(msg03ID, 1, 8, false)
	_ = e.PutConstrained(2222, 0, 4294967295)
	_, _, _ = e.PutLength(1, 0, Unbounded, false)
	e.PutBits(1, 3)
	_ = e.PutOctetString(msg03Evt, 4, 4, false)
	_, _, _ = e.PutLength(0, 0, Unbounded, false)
	_ = e.PutIA5String("19990729", 8, 8, false)
	_ = e.PutIA5String("22000000", 8, 8, false)
}

var (
	headerRE = regexp.MustCompile(`^MEGACO/(\d) \[(\d+)\.(\d+)\.(\d+)\.(\d+)\](?::(\d+))?`)
	transRE  = regexp.MustCompile(`^Transaction = (\d+)`)
)

// TestOTPCorpusHeaders decodes the start of every message of the corpus
// (all 149, versions 1 to 3) and compares it with the message text: the
// version, the IPv4 mId with its optional port, and for transaction
// requests the transaction id.
func TestOTPCorpusHeaders(t *testing.T) {
	manifest := strings.Split(strings.TrimSpace(string(corpus.Read(t, "MANIFEST.tsv"))), "\n")
	n, requests := 0, 0
	for _, line := range manifest[1:] { // after the header
		fields := strings.Split(line, "\t")
		name := fields[0]
		pretty := corpus.Read(t, name+".pretty.txt")
		lines := strings.SplitN(string(pretty), "\n", 3)
		h := headerRE.FindStringSubmatch(lines[0])
		if h == nil || h[1] != fields[1] {
			t.Fatalf("%s: header %q, manifest version %s", name, lines[0], fields[1])
		}
		msg := corpus.Read(t, name+".per")
		version, _ := strconv.ParseInt(h[1], 10, 64)
		var addr []byte
		for _, s := range h[2:6] {
			v, _ := strconv.Atoi(s)
			addr = append(addr, byte(v))
		}
		steps := []step{
			sBool("authHeader present", false),
			sBool("mess.<ext>", false),
			sInt("mess.version", 0, 99, version),
			sChoice("mess.mId", 5, true, 0),
			sBool("portNumber present", h[6] != ""),
			sOctets("address", 4, 4, addr),
		}
		if h[6] != "" {
			port, _ := strconv.ParseInt(h[6], 10, 64)
			steps = append(steps, sInt("portNumber", 0, 65535, port))
		}
		if m := transRE.FindStringSubmatch(lines[1]); m != nil {
			id, _ := strconv.ParseInt(m[1], 10, 64)
			steps = append(steps,
				sChoice("mess.messageBody", 2, false, 1),
				step{"transactions", nil, func(d *Reader) (any, error) {
					k, _, err := d.GetLength(0, Unbounded, false, 1)
					return k > 0, err
				}, true},
				sChoice("transactions[0]", 4, true, 0),
				sBool("transactionRequest.<ext>", false),
				sInt("transactionRequest.transactionId", 0, 4294967295, id),
			)
			requests++
		}
		t.Run(name, func(t *testing.T) {
			d := NewReader(msg)
			runDecode(t, &d, steps)
		})
		n++
	}
	if n != 149 || requests != 108 {
		t.Fatalf("checked %d messages (%d requests), want 149 (108)", n, requests)
	}
	t.Logf("checked %d messages, %d transaction ids", n, requests)
}
