//go:build !linux

package proxy

import (
	"net"
	"time"
)

// rawIO is Linux's; elsewhere the net package's calls serve.
type rawIO struct{}

func newRawIO(net.Conn, time.Duration) *rawIO { return nil }

func (*rawIO) Read([]byte) (int, error)  { panic("unreachable") }
func (*rawIO) Write([]byte) (int, error) { panic("unreachable") }
