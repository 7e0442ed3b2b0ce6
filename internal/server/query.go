package server

import (
	"net/url"
	"slices"
	"strings"
)

// query is a /v1 request's query parameters. The usual query, a few
// plain name=value pairs, is split here without the map and slices of
// net/url's; any other (escapes, '+', semicolons, many pairs) is left to
// net/url. For a plain query the two agree: unescaping changes nothing,
// and no pair is refused.
type query struct {
	pairs [maxPlainPairs][2]string
	n     int
	all   url.Values // when the query is not plain: net/url's parse
}

// maxPlainPairs is the most pairs a plain query has (the routes know
// six names).
const maxPlainPairs = 8

func parseQuery(raw string) query {
	var q query
	if strings.ContainsAny(raw, "%+;") || strings.Count(raw, "&") >= maxPlainPairs {
		q.all, _ = url.ParseQuery(raw) // as Request.URL.Query: errors drop pairs
		return q
	}
	for raw != "" {
		var pair string
		pair, raw, _ = strings.Cut(raw, "&")
		if pair == "" {
			continue
		}
		name, value, _ := strings.Cut(pair, "=")
		q.pairs[q.n] = [2]string{name, value}
		q.n++
	}
	return q
}

// Get is the first value of the parameter name, or "".
func (q *query) Get(name string) string {
	if q.all != nil {
		return q.all.Get(name)
	}
	for _, p := range q.pairs[:q.n] {
		if p[0] == name {
			return p[1]
		}
	}
	return ""
}

// unknown is the name of a parameter not among known, if any.
func (q *query) unknown(known []string) (string, bool) {
	if q.all != nil {
		for name := range q.all {
			if !slices.Contains(known, name) {
				return name, true
			}
		}
		return "", false
	}
	for _, p := range q.pairs[:q.n] {
		if !slices.Contains(known, p[0]) {
			return p[0], true
		}
	}
	return "", false
}
