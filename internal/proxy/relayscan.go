package proxy

import (
	"bytes"

	"megaco/internal/codec"
	"megaco/internal/codec/scan"
)

// scanner reads what routing needs of a message without decoding it
// (codec.Scan; tests put a stand-in here).
var scanner = codec.Scan

// scannedMID is an mId as a scanner reports it (its own copy), kept to
// tell whether a peer still uses the identity the proxy learnt from it.
type scannedMID struct {
	kind  scan.MIDKind
	port  int
	value []byte
}

// scanRelay fills w.infos from a scan of data when both sides speak one
// codec, so that the bytes are relayed without decoding; scanned reports
// that the scan itself succeeded (w.sum holds it). It reports listed
// false when the message must be decoded after all: the codec has no scanner
// yet, the scan failed (the decoder then says why, as for any bad
// message), the peer's mId is not the one learnt (the proxy keeps it
// decoded, for the error replies it writes on its own), or the message
// acknowledges replies (a summary lists a TransactionResponseAck's ranges,
// not where one such transaction ends and the next begins).
func (p *Proxy) scanRelay(w *worker, s side, data []byte) (listed, scanned bool) {
	sum := &w.sum
	sum.Want = scan.Commands // routing and metrics read no termination IDs
	if !p.sides[s].scans || scanner(p.sides[s].cfg.Codec, data, sum, p.opts.Limits) != nil {
		return false, false
	}
	if !p.sides[s].knownMID(&sum.MID) {
		return false, true
	}
	w.infos = w.infos[:0]
	if _, ok := sum.MessageError(); ok {
		w.infos = append(w.infos, txInfo{kind: kindError})
		return true, true
	}
	for i := range sum.Transactions {
		t := &sum.Transactions[i]
		if t.Kind == 0 || t.Kind == scan.ResponseAck || int(t.Kind) >= len(scanKinds) {
			return false, true // an acknowledgement: decoded (see above)
		}
		info := txInfo{kind: scanKinds[t.Kind], tid: t.ID}
		switch t.Kind {
		case scan.Request:
			info.command = firstScannedCommand(sum, i)
		case scan.Reply:
			info.final = t.Final()
		}
		w.infos = append(w.infos, info)
	}
	return true, true
}

// firstScannedCommand is request tx's first command, as firstCommand
// reads it from a decoded request: none when its first action has none.
func firstScannedCommand(sum *scan.Summary, tx int) uint8 {
	for a := range sum.Actions {
		if sum.Actions[a].Tx != tx {
			continue
		}
		for _, c := range sum.Commands {
			if c.Action == a && !c.Reply {
				if k := int(c.Kind); k > 0 && k < len(commandIndex) {
					return commandIndex[k]
				}
				return commandNone
			}
		}
		return commandNone // the first action has no command
	}
	return commandNone
}

// hasScanner reports whether the codec table gives the codec called
// name a scanner (asked once per side, not per message). A stand-in
// scanner in tests still fails per message, and the message is decoded.
func hasScanner(name string) bool {
	d, ok := codec.Describe(name)
	return ok && d.Scan != nil
}

// knownMID reports whether id is the mId last learnt from this side's
// peer by a decoding that followed a scan.
func (s *sideState) knownMID(id *scan.MID) bool {
	k := s.scanned.Load()
	return k != nil && k.kind == id.Kind && k.port == id.Port && bytes.Equal(k.value, id.Value)
}

// rememberMID keeps the scanned form of the mId just learnt by decoding.
func (s *sideState) rememberMID(id *scan.MID) {
	if !s.knownMID(id) {
		s.scanned.Store(&scannedMID{id.Kind, id.Port, bytes.Clone(id.Value)})
	}
}

// forgetMID drops the scanned mId after a decoding without a scan: the
// next message is decoded, and so keeps what is learnt right.
func (s *sideState) forgetMID() {
	if s.scanned.Load() != nil {
		s.scanned.Store(nil)
	}
}
