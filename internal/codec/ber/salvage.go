package ber

import "megaco/internal/codec/scan"

// Salvage fills s (after resetting it) with what can be read of a message
// that does not decode, so that a relay can still answer its requests:
// walking MegacoMessage { mess [1] { version [0], messageBody [2]
// { transactions [1] { Transaction... } } } } as far as it holds, the
// version (capped at 99) and each Transaction as one of its kind, a
// transactionRequest's with its transactionId. An alternative it does
// not know counts as a Reply (dropped, never answered). Lengths that run
// past the data are cut to it (hdrCut), so a cut message still gives its
// first transactions. It never fails and stops at max transactions.
func Salvage(data []byte, s *scan.Summary, max int) {
	s.Reset()
	id, start, end := hdrCut(data, 0, len(data))
	if id != 0x30 {
		return
	}
	mess, _ := cutFind(data[start:min(end, len(data))], 0xa1)
	if v, ok := cutUint(cutFind(mess, 0x80)); ok {
		s.Version = int(min(v, 99))
	}
	body, _ := cutFind(mess, 0xa2)
	trs, _ := cutFind(body, 0xa1)
	for off := 0; off < len(trs) && len(s.Transactions) < max; {
		id, start, end := hdrCut(trs, off, len(trs))
		if id == bad {
			return
		}
		t := scan.Transaction{Kind: salvageKinds[id&0x1f]}
		if t.Kind == scan.Request {
			tid, ok := cutUint(cutFind(trs[start:min(end, len(trs))], 0x80))
			if !ok || tid > 1<<32-1 {
				t.Kind = 0 // a request without an ID: nothing to answer
			}
			t.ID, t.LastID = uint32(tid), uint32(tid)
		}
		if t.Kind != 0 {
			s.Transactions = append(s.Transactions, t)
		}
		off = end
	}
}

// salvageKinds maps the Transaction alternatives' tag numbers to kinds:
// transactionRequest [0], transactionPending [1], transactionReply [2],
// transactionResponseAck [3], segmentReply [4]; any other is a Reply.
var salvageKinds = func() (k [32]scan.TxKind) {
	for i := range k {
		k[i] = scan.Reply
	}
	k[0], k[1], k[3], k[4] = scan.Request, scan.Pending, scan.ResponseAck, scan.SegmentReply
	return k
}()

// cutFind returns the contents of the first element of b tagged want, cut
// to the end of b, and whether they are whole; nil when there is none.
func cutFind(b []byte, want byte) ([]byte, bool) {
	for off := 0; off < len(b); {
		id, start, stop := hdrCut(b, off, len(b))
		if id == bad {
			break
		}
		if id == want {
			return b[start:min(stop, len(b))], stop <= len(b)
		}
		off = stop
	}
	return nil, false
}

// cutUint reads b, when whole, as an unsigned integer of one to five
// octets: a cut integer is no value.
func cutUint(b []byte, whole bool) (uint64, bool) {
	if !whole || len(b) == 0 || len(b) > 5 {
		return 0, false
	}
	var v uint64
	for _, c := range b {
		v = v<<8 | uint64(c)
	}
	return v, true
}
