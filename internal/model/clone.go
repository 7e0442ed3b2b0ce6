package model

// Clone (clone_gen.go, generated from the schema) copies a message or a
// part of one deeply: what a transient decoding hands out aliases the
// decoder's reused memory, and what must outlive it (a relay's kept
// mId, say) is cloned.

// cloneEach copies s with each element cloned by f, keeping nil apart
// from empty (as slices.Clone does for the lists whose elements hold no
// memory of their own).
func cloneEach[S ~[]E, E any](s S, f func(*E) E) S {
	if s == nil {
		return nil
	}
	c := make(S, len(s))
	for i := range s {
		c[i] = f(&s[i])
	}
	return c
}
