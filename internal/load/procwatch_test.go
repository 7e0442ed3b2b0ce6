package load

import (
	"os"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestReadProcOwn reads this process's counters twice around some work:
// CPU time and context switches only grow.
func TestReadProcOwn(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("/proc is Linux's")
	}
	a, err := readProc(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	var b procSample
	for {
		for i := 0; i < 1e6; i++ { // CPU work, in ticks of 10 ms
			_ = strings.Repeat("x", i%7)
		}
		time.Sleep(time.Millisecond) // a voluntary switch
		if b, err = readProc(os.Getpid()); err != nil {
			t.Fatal(err)
		}
		if b.cpu > a.cpu && b.vol > a.vol || time.Now().After(deadline) {
			break
		}
	}
	if b.cpu <= a.cpu || b.vol <= a.vol || b.invol < a.invol {
		t.Errorf("counters did not grow: before %+v, after %+v", a, b)
	}
	if _, err := readProc(-1); err == nil {
		t.Error("no error for a process that does not exist")
	}
}

func TestPerfCount(t *testing.T) {
	out := "\n1234,,raw_syscalls:sys_enter,2003456,100.00,,\n"
	if n, err := perfCount(strings.NewReader(out), "raw_syscalls:sys_enter"); err != nil || n != 1234 {
		t.Errorf("got %d, %v; want 1234", n, err)
	}
	out = "<not counted>,,raw_syscalls:sys_enter,0,0.00,,\n"
	if _, err := perfCount(strings.NewReader(out), "raw_syscalls:sys_enter"); err == nil {
		t.Error("no error for an event not counted")
	}
	out = "Error:\nNo permission to enable raw_syscalls:sys_enter event.\n"
	if _, err := perfCount(strings.NewReader(out), "raw_syscalls:sys_enter"); err == nil || !strings.Contains(err.Error(), "permission") {
		t.Errorf("want perf's last line as the error, got %v", err)
	}
}
