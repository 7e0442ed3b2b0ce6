// Package tpkt is internal/tpkt under its former path, kept only until
// the proxy's transport.go imports "megaco/internal/tpkt" itself; it adds
// nothing.
//
// Deprecated: use megaco/internal/tpkt.
package tpkt

import (
	"io"

	"megaco/internal/tpkt"
)

// HeaderLen is tpkt.HeaderLen.
const HeaderLen = tpkt.HeaderLen

// ErrHeader is tpkt.ErrHeader.
var ErrHeader = tpkt.ErrHeader

// Reader is tpkt.Reader.
type Reader = tpkt.Reader

// NewReader is tpkt.NewReader.
func NewReader(r io.Reader) *Reader { return tpkt.NewReader(r) }

// AppendFrame is tpkt.AppendFrame.
func AppendFrame(dst, payload []byte) ([]byte, error) { return tpkt.AppendFrame(dst, payload) }
