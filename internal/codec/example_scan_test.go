package codec_test

import (
	"fmt"

	"megaco/internal/codec"
	"megaco/internal/codec/limits"
	"megaco/internal/codec/scan"
)

// What a metrics pipeline reads of a message without decoding it, and the
// same message copied with new transaction and context IDs.
func ExampleScan() {
	msg := []byte(`!/3 [124.124.124.222]:55555 T=9998{C=-{N=a4444{OE=2222{19990729T22000000:al/of}}}}`)
	var s scan.Summary // reused from message to message: no allocation once grown
	if err := codec.Scan("compact", msg, &s, limits.Limits{}); err != nil {
		panic(err)
	}
	t := s.Transactions[0]
	fmt.Printf("v%d %s port %d: %v %d, context %d, %v %s\n", s.Version, s.MID.Value, s.MID.Port,
		t.Kind, t.ID, s.Actions[0].ContextID, s.Commands[0].Kind, s.Terminations[0].ID)

	ch := scan.Changes{
		TransactionIDs: func(old uint32) uint32 { return old + 10000 },
		ContextIDs:     func(old uint32) uint32 { return old + 1 }, // "-" (0) is never passed
	}
	out, err := codec.Rewrite("compact", nil, msg, &ch, limits.Limits{})
	if err != nil {
		panic(err)
	}
	fmt.Printf("%s\n", out)
	// Output:
	// v3 [124.124.124.222] port 55555: request 9998, context 0, notify a4444
	// !/3 [124.124.124.222]:55555
	// T=19998{C=-{N=a4444{OE=2222{19990729T22000000:al/of}}}}
}
