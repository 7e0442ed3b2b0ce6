package ber

import (
	"testing"

	"megaco/internal/corpus"
)

// TestCorpusRoundTrip decodes every golden .ber and re-encodes it: the
// bytes must be OTP's, byte for byte.
func TestCorpusRoundTrip(t *testing.T) { corpus.RoundTrip(t, ".ber", Codec{}) }
