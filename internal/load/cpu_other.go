//go:build !unix

package load

import "time"

func processCPU() time.Duration { return 0 }
