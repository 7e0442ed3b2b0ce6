package bench

import (
	"fmt"
	"strings"
)

// Best is one line of "best against best": for one of OTP's codec
// families and one operation, the fastest configuration of each side
// over the same messages. It answers "how much faster is the best we
// offer than the best OTP offers", which no single row pair does: our
// fastest decoder reuses its memory, OTP's fastest text decoder is its
// flex scanner, and its fastest erl_dist is megaco_compressed.
type Best struct {
	Family string  `json:"family"` // OTP's: pretty, compact, per, ber, erl_dist
	Op     string  `json:"op"`     // "encode" or "decode"
	Ours   string  `json:"ours"`
	OursUS float64 `json:"ours_us"`
	OTP    string  `json:"otp"`
	OTPUS  float64 `json:"otp_us"`
	Ratio  float64 `json:"ratio"` // OTPUS / OursUS
}

// bestAgainstBest finds, for each family of OTP rows, the fastest OTP
// configuration, and the fastest of ours among the rows of the families
// OTP's rows are compared with (Versus: erl_dist with the native codecs)
// that ran every message OTP's did, whatever their options.
func bestAgainstBest(rows []Row) []Best {
	var out []Best
	seen := map[string]bool{}
	for _, r := range rows {
		if r.Impl != "otp" || seen[r.Family] {
			continue
		}
		seen[r.Family] = true
		for _, op := range []string{"decode", "encode"} {
			if b, ok := bestOf(rows, r.Family, op); ok {
				out = append(out, b)
			}
		}
	}
	return out
}

func bestOf(rows []Row, family, op string) (Best, bool) {
	b := Best{Family: family, Op: op}
	ours := map[string]bool{} // our families OTP's rows are compared with
	msgs := 0
	for _, r := range rows {
		if r.Impl != "otp" || r.Family != family {
			continue
		}
		msgs = max(msgs, r.Messages)
		if us := opUS(&r, op); us > 0 && (b.OTPUS == 0 || us < b.OTPUS) {
			b.OTP, b.OTPUS = r.Config, us
		}
		for _, v := range r.Versus {
			for _, o := range rows {
				if o.Impl != "otp" && o.Config == v.Config {
					ours[o.Family] = true
				}
			}
		}
	}
	for _, o := range rows {
		if o.Impl == "otp" || !ours[o.Family] || o.Messages < msgs {
			continue
		}
		if us := opUS(&o, op); us > 0 && (b.OursUS == 0 || us < b.OursUS) {
			b.Ours, b.OursUS = o.Config, us
		}
	}
	if b.OTPUS == 0 || b.OursUS == 0 {
		return b, false
	}
	b.Ratio = b.OTPUS / b.OursUS
	return b, true
}

func opUS(r *Row, op string) float64 {
	if op == "encode" {
		return r.EncodeUS
	}
	return r.DecodeUS
}

// writeBest writes the best-against-best lines under the table.
func writeBest(b *strings.Builder, best []Best, nameW int) {
	if len(best) == 0 {
		return
	}
	b.WriteString("\nBest against best: each side's fastest configuration of the codec, µs per message (OTP's / ours)\n\n")
	fmt.Fprintf(b, "%-8s %-6s  %-*s %8s  %-*s %8s  %6s\n", "Codec", "Op", nameW, "megaco", "µs", nameW, "OTP", "µs", "ratio")
	for _, x := range best {
		fmt.Fprintf(b, "%-8s %-6s  %-*s %8s  %-*s %8s  %6s\n", x.Family, x.Op, nameW, x.Ours, us(x.OursUS), nameW, x.OTP, us(x.OTPUS), times(x.Ratio))
	}
}
