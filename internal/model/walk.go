package model

import "strconv"

// The Walker visits the fields of a message whose content differs between
// the text and the binary form (docs/text-binary-mapping.md, sections
// 1-5). Its per-type functions, the WalkTarget constants, WalkSites and
// WalkVisitor are generated from the schema (walk_gen.go); this file is
// the part that does not depend on it.

// WalkTarget is a kind of field the Walker hands to its visitor.
type WalkTarget uint8

// WalkSite is a place in the schema where the Walker visits a field.
type WalkSite struct {
	Target WalkTarget
	// Type is the ASN.1 type the field is declared with that made it a
	// target ("EventName" for a PkgdName declared as EventName), or the
	// built-in type of an inline one.
	Type string
	// Parent is the type that holds the field; Field the field's (or the
	// CHOICE alternative's) ASN.1 name.
	Parent, Field string
	// List is set when the visited value is an element of a SEQUENCE OF.
	List bool
	// Index is the site's position in WalkSites, for tables that
	// visitors compute once per site.
	Index int
}

// WalkItem is an item that encloses the field being visited (an event, a
// signal, a property, a parameter...), given by the field that names it.
type WalkItem struct {
	Site *WalkSite
	Name *Octets
}

type walkStep struct {
	name  string // a field; "" for an index
	index int
}

// Walker walks a message and hands every target field to V. The zero
// value with V set is ready; a Walker can be reused but not shared
// between goroutines.
type Walker struct {
	V     WalkVisitor
	site  *WalkSite
	path  []walkStep
	items []WalkItem
}

// Walk visits every target field of m, in message order. Within an item,
// the field that names it is visited first.
func (w *Walker) Walk(m *MegacoMessage) error {
	w.site, w.path, w.items = nil, w.path[:0], w.items[:0]
	return w.walkMegacoMessage(m)
}

// Site is the schema site of the field being visited.
func (w *Walker) Site() *WalkSite { return w.site }

// Items lists the items enclosing the field being visited, outermost
// first. Their name fields have been visited already (and may have been
// changed by the visitor). When the visited field is itself the name of an
// item, that item is not among them.
func (w *Walker) Items() []WalkItem { return w.items }

// AppendPath appends the path of the field being visited, e.g.
// "mess.messageBody.transactions[0].transactionRequest.actions[0]...".
func (w *Walker) AppendPath(dst []byte) []byte {
	for i, s := range w.path {
		if s.name == "" {
			dst = append(dst, '[')
			dst = strconv.AppendInt(dst, int64(s.index), 10)
			dst = append(dst, ']')
			continue
		}
		if i > 0 {
			dst = append(dst, '.')
		}
		dst = append(dst, s.name...)
	}
	return dst
}

// Path returns the path of the field being visited.
func (w *Walker) Path() string { return string(w.AppendPath(nil)) }

func (w *Walker) push(name string) { w.path = append(w.path, walkStep{name: name}) }

func (w *Walker) pushIndex(i int) { w.path = append(w.path, walkStep{index: i}) }

func (w *Walker) pop() { w.path = w.path[:len(w.path)-1] }

// enterItem keeps the item named by name, whose field was just visited at
// w's site, on the item stack while its other fields are walked.
func (w *Walker) enterItem(name *Octets) {
	w.items = append(w.items, WalkItem{Site: w.site, Name: name})
}

// leaveItem drops the innermost item.
func (w *Walker) leaveItem() { w.items = w.items[:len(w.items)-1] }
