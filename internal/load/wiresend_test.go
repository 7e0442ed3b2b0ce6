package load

import (
	"fmt"
	"net"
	"sync"
	"testing"
	"time"
)

// Requests queued by many calls at once all go out, each once: the call
// sending takes over what the others queue meanwhile.
func TestRequestQueueSendsEachOnce(t *testing.T) {
	rx, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer rx.Close()
	_ = rx.SetReadBuffer(wireSockBuf)
	tx, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Close()
	s := &wireSide{w: &wire{}, udp: tx, target: rx.LocalAddr().(*net.UDPAddr).AddrPort()}

	const calls, each = 20, 10
	var wg sync.WaitGroup
	for c := range calls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				s.sendRequest([]byte(fmt.Sprintf("call %d request %d", c, i)), wireID(c), false)
			}
		}()
	}
	wg.Wait()

	seen := map[string]int{}
	buf := make([]byte, 100)
	_ = rx.SetReadDeadline(time.Now().Add(10 * time.Second))
	for len(seen) < calls*each {
		n, err := rx.Read(buf)
		if err != nil {
			t.Fatalf("%d of %d requests arrived: %v", len(seen), calls*each, err)
		}
		seen[string(buf[:n])]++
	}
	for c := range calls {
		for i := range each {
			if k := seen[fmt.Sprintf("call %d request %d", c, i)]; k != 1 {
				t.Errorf("call %d request %d arrived %d times", c, i, k)
			}
		}
	}
	// Nothing more: no request went out twice.
	_ = rx.SetReadDeadline(time.Now().Add(100 * time.Millisecond))
	if n, err := rx.Read(buf); err == nil {
		t.Errorf("an extra datagram arrived: %q", buf[:n])
	}
}
