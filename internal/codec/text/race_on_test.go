//go:build race

package text

// raceEnabled: the race detector is on, and sync.Pool drops items at
// random, so allocation counts of pooled paths mean nothing.
const raceEnabled = true
