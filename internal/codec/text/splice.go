package text

import "megaco/internal/codec/scan"

// SpliceMID appends to dst the message data with mid written over span,
// where a scan of data found its mId: text holds no lengths, so the
// bytes around it stay as they are. It reports false for a span that is
// not within data.
func SpliceMID(dst, data []byte, span scan.Span, mid []byte) ([]byte, bool) {
	if span.Len <= 0 || span.Off < 0 || span.End() > len(data) {
		return dst, false
	}
	dst = append(dst, data[:span.Off]...)
	dst = append(dst, mid...)
	return append(dst, data[span.End():]...), true
}
