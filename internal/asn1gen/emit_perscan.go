package asn1gen

import (
	"bytes"
	"fmt"
	"go/format"
	"maps"
	"math/bits"
	"slices"
)

// scanHook is what the PER scanner does at one place of the schema,
// besides advancing over the value: At is a statement run on entering a
// type (key "Type"), when a CHOICE alternative is chosen or an optional
// component is present (key "Type.component", Type being the Go type's
// name); After runs when the component's value has been passed; Val names
// a scanner method that receives the value: an INTEGER's (value int64,
// bit offset of its encoding), an OCTET STRING's or character string's
// octets ([]byte), a SEQUENCE OF's element count (int).
type scanHook struct {
	At, After, Val string
}

// perScanHooks are the places of the schema a scan.Summary reports. The
// methods are the scanner's, in package per (scan.go); the hooks that
// depend on where a type is used (an mId, a command's termination IDs)
// set the scanner's context around the component that uses it.
var perScanHooks = map[string]scanHook{
	"Message.mId":                                     {At: "d.midBegin()", After: "d.midEnd()"},
	"MId.ip4Address":                                  {At: "d.midKind(scan.IP4Address)"},
	"MId.ip6Address":                                  {At: "d.midKind(scan.IP6Address)"},
	"MId.domainName":                                  {At: "d.midKind(scan.DomainName)"},
	"MId.deviceName":                                  {At: "d.midKind(scan.DeviceName)", Val: "midValue"},
	"MId.mtpAddress":                                  {At: "d.midKind(scan.MTPAddress)", Val: "midValue"},
	"IP4Address.address":                              {Val: "midValue"},
	"IP4Address.portNumber":                           {Val: "midPort"},
	"IP6Address.address":                              {Val: "midValue"},
	"IP6Address.portNumber":                           {Val: "midPort"},
	"DomainName.name":                                 {Val: "midValue"},
	"DomainName.portNumber":                           {Val: "midPort"},
	"MessageMessageBody.transactions":                 {Val: "txCount"},
	"Transaction":                                     {At: "d.txLeft--"},
	"Transaction.transactionRequest":                  {At: "d.tx(scan.Request)"},
	"Transaction.transactionPending":                  {At: "d.tx(scan.Pending)"},
	"Transaction.transactionReply":                    {At: "d.tx(scan.Reply)"},
	"Transaction.segmentReply":                        {At: "d.tx(scan.SegmentReply)"},
	"TransactionAck":                                  {At: "d.tx(scan.ResponseAck)"},
	"TransactionRequest.transactionId":                {Val: "txID"},
	"TransactionPending.transactionId":                {Val: "txID"},
	"TransactionReply.transactionId":                  {Val: "txID"},
	"SegmentReply.transactionId":                      {Val: "txID"},
	"TransactionAck.firstAck":                         {Val: "txID"},
	"TransactionAck.lastAck":                          {Val: "lastID"},
	"TransactionReply.immAckRequired":                 {At: "d.immAck()"},
	"TransactionReply.segmentNumber":                  {Val: "segment"},
	"SegmentReply.segmentNumber":                      {Val: "segment"},
	"TransactionReply.segmentationComplete":           {At: "d.complete()"},
	"SegmentReply.segmentationComplete":               {At: "d.complete()"},
	"TransactionRequest.actions":                      {At: "d.extAfter = false\n" + stopAt("Transactions"), Val: "actCount"},
	"TransactionReply.transactionResult":              {At: "d.extAfter = hasExt"},
	"TransactionReplyTransactionResult.actionReplies": {At: stopAt("Transactions"), Val: "actCount"},
	"ActionRequest.contextId":                         {Val: "action", After: stopAt("Actions")},
	"ActionReply.contextId":                           {Val: "action"},
	"ActionReply.commandReply":                        {At: stopAt("Actions")},
	"Command.addReq":                                  {At: "d.command(scan.Add, false)"},
	"Command.moveReq":                                 {At: "d.command(scan.Move, false)"},
	"Command.modReq":                                  {At: "d.command(scan.Modify, false)"},
	"Command.subtractReq":                             {At: "d.command(scan.Subtract, false)"},
	"Command.auditCapRequest":                         {At: "d.command(scan.AuditCapability, false)"},
	"Command.auditValueRequest":                       {At: "d.command(scan.AuditValue, false)"},
	"Command.notifyReq":                               {At: "d.command(scan.Notify, false)"},
	"Command.serviceChangeReq":                        {At: "d.command(scan.ServiceChange, false)"},
	"CommandReply.addReply":                           {At: "d.command(scan.Add, true)"},
	"CommandReply.moveReply":                          {At: "d.command(scan.Move, true)"},
	"CommandReply.modReply":                           {At: "d.command(scan.Modify, true)"},
	"CommandReply.subtractReply":                      {At: "d.command(scan.Subtract, true)"},
	"CommandReply.auditCapReply":                      {At: "d.command(scan.AuditCapability, true)"},
	"CommandReply.auditValueReply":                    {At: "d.command(scan.AuditValue, true)"},
	"CommandReply.notifyReply":                        {At: "d.command(scan.Notify, true)"},
	"CommandReply.serviceChangeReply":                 {At: "d.command(scan.ServiceChange, true)"},
	"CommandRequest.optional":                         {At: "d.optional()"},
	"CommandRequest.wildcardReturn":                   {At: "d.wildcard()"},
	"AmmRequest.terminationID":                        termsHook,
	"SubtractRequest.terminationID":                   termsHook,
	"AuditRequest.terminationID":                      termsHook,
	"AuditRequest.terminationIDList":                  {At: "d.terms, d.replace = true, true", After: "d.terms, d.replace = false, false"},
	"NotifyRequest.terminationID":                     termsHook,
	"ServiceChangeRequest.terminationID":              termsHook,
	"AmmsReply.terminationID":                         termsHook,
	"NotifyReply.terminationID":                       termsHook,
	"ServiceChangeReply.terminationID":                termsHook,
	"AuditReply.contextAuditResult":                   termsHook,
	"AuditResult.terminationID":                       termsHook,
	"TermListAuditResult.terminationIDList":           termsHook,
	"TerminationID":                                   {At: "d.termBegin()"},
	"TerminationID.wildcard":                          {Val: "termWildcards"},
	"TerminationID.id":                                {Val: "termID"},
	"ErrorDescriptor.errorCode":                       {Val: "errorCode"},
}

// stopAt is a stop hook: it ends the walk (d.done) once it has passed all
// that s.Want asks for, when that is depth (Transactions or Actions): in
// the message's last transaction (and, for Actions, its last action),
// nothing that follows is reported at that depth. PER has no length to
// hop a transaction by, so this is the only place a shallow scan can
// leave what it does not read unread.
func stopAt(depth string) string {
	return "if d.done(scan." + depth + ") {\nreturn errStop\n}"
}

// termsHook marks a command's own termination IDs, as opposed to those
// of a topology or a descriptor.
var termsHook = scanHook{At: "d.terms = true", After: "d.terms = false"}

// perScanGen writes the PER scanner: for every SEQUENCE, SET and CHOICE
// of every version group, a function that advances over a value without
// storing it and calls the scanner where perScanHooks says.
type perScanGen struct {
	*perGen
	reaches map[string]bool // "name/version": a hook is reachable from the type
	// outside lists, per version, the types a message holds outside a
	// command's contents (below the Command and CommandReply CHOICEs).
	outside map[int]map[string]bool
}

// EmitPERScan writes the generated part of the PER scanner (package per).
func (f *Family) EmitPERScan(pkg string) ([]byte, error) {
	g := &perScanGen{perGen: &perGen{berGen: newBerGen(f), charsets: map[string]string{}}, reaches: map[string]bool{}, outside: map[int]map[string]bool{}}
	w := &g.w
	g.begin(pkg, "megaco/internal/codec/codecerr", "megaco/internal/codec/per/x691", "megaco/internal/codec/scan")
	for _, t := range f.Types {
		if t.Kind == KindEnumerated {
			continue
		}
		for _, vs := range g.groups(t) {
			v := f.version(vs[0])
			if err := split(g.scanFunc)(typeFunc{t: t, vs: vs, v: v, def: t.Defs[v.N]}); err != nil {
				return nil, err
			}
		}
	}
	w.WriteString("func scanMessage(d *scanner, v int) error {\nswitch v {\n")
	for _, v := range f.Versions {
		fmt.Fprintf(w, "case %d:\nreturn scanMegacoMessage%s(d)\n", v.N, g.funcSuffix("MegacoMessage", v.N))
	}
	w.WriteString("}\nreturn d.errorf(\"no schema for version %d\", v)\n}\n")
	// The permitted alphabets the scanner skips strings of (none in the
	// H.248 modules today), in a stable order.
	for _, a := range slices.Sorted(maps.Keys(g.charsets)) {
		fmt.Fprintf(w, "\nvar %s = x691.NewCharSet(%q)\n", g.charsets[a], a)
	}
	out, err := format.Source(w.Bytes())
	if err != nil {
		out, err = w.Bytes(), fmt.Errorf("generated PER scanner does not parse: %w", err)
	}
	return out, err
}

// reach reports whether a hook can run inside a value of type t in v: an
// extension addition where none can is skipped by its length.
func (g *perScanGen) reach(v *Version, t *Type) bool {
	r, err := v.Resolve(t)
	if err != nil {
		return true
	}
	if r.Kind == KindSequenceOf || r.Kind == KindSetOf {
		return g.reach(v, r.Elem)
	}
	name := g.f.named[r]
	if name == "" || (r.Kind != KindSequence && r.Kind != KindSet && r.Kind != KindChoice) {
		return false
	}
	key := fmt.Sprintf("%s/%d", name, v.N)
	if got, ok := g.reaches[key]; ok {
		return got
	}
	g.reaches[key] = false // a recursive reference adds nothing
	found := perScanHooks[name] != scanHook{}
	for _, c := range r.Components {
		if !found {
			found = perScanHooks[name+"."+c.Name] != scanHook{} || g.reach(v, c.Type)
		}
	}
	g.reaches[key] = found
	return found
}

func (g *perScanGen) scanFunc(tf typeFunc, root, ext []*Component) error {
	t, def, w := tf.t, tf.def, &g.w
	fmt.Fprintf(w, "func scan%s%s(d *scanner) error {\nif err := d.enter(); err != nil {\nreturn err\n}\n", t.Name, suffix(tf.vs))
	if h := perScanHooks[t.Name]; h.At != "" {
		w.WriteString(h.At + "\n")
	}
	if t.Kind == KindChoice {
		return g.scanChoice(tf, root, ext)
	}
	var optional int
	for _, c := range root {
		if c.Optional || c.Default != "" {
			optional++
		}
	}
	if optional > 63 {
		return fmt.Errorf("%s: more than 63 optional components", t.Name)
	}
	emitPreamble(w, def.Extensible, optional)
	oi, run, runName := 0, 0, ""
	flush := func() {
		if run > 0 {
			fmt.Fprintf(w, "if err := d.SkipBits(%d); err != nil {\nreturn codecerr.At(err, %q)\n}\n", run, runName)
		}
		run = 0
	}
	for _, c := range root {
		mandatory := !c.Optional && c.Default == ""
		if n, ok := g.fixedBits(tf.v, c.Type, 0); ok && mandatory && perScanHooks[t.Name+"."+c.Name] == (scanHook{}) {
			// A bit-field of fixed size: merged with its neighbours.
			if run == 0 {
				runName = c.Name
			}
			run += n
			continue
		}
		flush()
		if !mandatory {
			fmt.Fprintf(w, "if opt&(1<<%d) != 0 {\n", optional-1-oi)
			oi++
		} else {
			w.WriteString("{\n")
		}
		if err := g.scanComp(tf, c); err != nil {
			return err
		}
		w.WriteString("}\n")
	}
	flush()
	if def.Extensible {
		emitExtBitmap(w, len(ext))
		for i, c := range ext {
			fmt.Fprintf(w, "if present&(1<<%d) != 0 {\n", i)
			if err := g.scanComp(tf, c); err != nil {
				return err
			}
			w.WriteString("}\n")
		}
		w.WriteString("if err = d.skipOpenTypes(unknown); err != nil {\nreturn err\n}\n}\n")
	}
	w.WriteString("d.leave()\nreturn nil\n}\n\n")
	return nil
}

func (g *perScanGen) scanChoice(tf typeFunc, root, ext []*Component) error {
	t, w := tf.t, &g.w
	// The index of a root alternative in as many bits as the count needs
	// (one past the last is the default case); an extension's, a normally
	// small number after the extension bit.
	k := indexBits(len(root))
	if tf.def.Extensible {
		emitIndex(w, "idx", "", len(root), true, "return err")
		w.WriteString("switch idx {\n")
	} else {
		emitBits(w, "idx", k, "return err")
		w.WriteString("switch idx {\n")
	}
	for idx, c := range append(append([]*Component{}, root...), ext...) {
		fmt.Fprintf(w, "case %d:\n", idx)
		if err := g.scanComp(tf, c); err != nil {
			return err
		}
	}
	fmt.Fprintf(w, "default:\nreturn d.errorf(\"unknown alternative %%d of %s\", idx)\n}\nd.leave()\nreturn nil\n}\n\n", t.Name)
	return nil
}

// scanComp emits the passing of component c: an extension addition is
// an open type, entered when a hook may run inside it and skipped by its
// length otherwise.
func (g *perScanGen) scanComp(tf typeFunc, c *Component) error {
	w := &g.w
	h := perScanHooks[tf.t.Name+"."+c.Name]
	ret := fmt.Sprintf("codecerr.At(%%s, %q)", c.Name)
	if c.Ext && h == (scanHook{}) && !g.reach(tf.v, c.Type) {
		fmt.Fprintf(w, "if err := d.SkipOpenType(); err != nil {\nreturn %s\n}\n", fmt.Sprintf(ret, "err"))
		return nil
	}
	// Inside a command's contents only what Everything reports can be:
	// an open type there is skipped by its length at any other depth.
	deep := c.Ext && !g.isOutside(tf.v, tf.t.Name)
	if deep {
		fmt.Fprintf(w, "if !d.all {\nif err := d.SkipOpenType(); err != nil {\nreturn %s\n}\n} else {\n", fmt.Sprintf(ret, "err"))
	}
	if c.Ext {
		fmt.Fprintf(w, "outer, err := d.openType()\nif err != nil {\nreturn %s\n}\n", fmt.Sprintf(ret, "err"))
	}
	if h.At != "" {
		w.WriteString(h.At + "\n")
	}
	if err := g.scanVal(tf.v, c.Type, h.Val, ret); err != nil {
		return fmt.Errorf("%s.%s: %w", tf.t.Name, c.Name, err)
	}
	if h.After != "" {
		w.WriteString(h.After + "\n")
	}
	if c.Ext {
		w.WriteString("d.closeOpenType(outer)\n")
	}
	if deep {
		w.WriteString("}\n")
	}
	return nil
}

// isOutside reports whether a value of the type named name can be found
// in a message of version v outside a command's contents.
func (g *perScanGen) isOutside(v *Version, name string) bool {
	if g.outside[v.N] == nil {
		seen := map[string]bool{}
		for _, t := range g.f.Types {
			if def := t.Defs[v.N]; t.Name == "MegacoMessage" && def != nil {
				g.walkOutside(v, def, seen)
			}
		}
		g.outside[v.N] = seen
	}
	return g.outside[v.N][name]
}

// walkOutside adds to seen the types reachable from t without entering
// the alternatives of Command and CommandReply.
func (g *perScanGen) walkOutside(v *Version, t *Type, seen map[string]bool) {
	r, err := v.Resolve(t)
	if err != nil {
		return
	}
	if r.Kind == KindSequenceOf || r.Kind == KindSetOf {
		g.walkOutside(v, r.Elem, seen)
		return
	}
	name := g.f.named[r]
	if name == "" || seen[name] {
		return
	}
	seen[name] = true
	if name == "Command" || name == "CommandReply" {
		return
	}
	for _, c := range r.Components {
		g.walkOutside(v, c.Type, seen)
	}
}

// scanVal emits the passing of a value of type t, handing it to the
// scanner method val if there is one; ret wraps an error expression.
func (g *perScanGen) scanVal(v *Version, t *Type, val, ret string) error {
	w := &g.w
	fail := "return " + fmt.Sprintf(ret, "err")
	r, err := v.Resolve(t)
	if err != nil {
		return err
	}
	lb, ub, ext := sizeArgs(r.Size)
	switch r.Kind {
	case KindInteger:
		form, bounds := intForm(r.Value)
		if val == "" {
			if n, aligned, ok := constrainedBits(r.Value); ok {
				skipBits(w, n, aligned, fail)
				break
			}
			if rg := r.Value; form == "Constrained" && uint64(rg.Upper)-uint64(rg.Lower) > 0xFFFF {
				// X.691 10.5.7.4: the octet count less one in as many bits
				// as the largest count needs, then the octets, aligned.
				n := g.tmp("n")
				maxOctets := (bits.Len64(uint64(rg.Upper)-uint64(rg.Lower)) + 7) / 8
				fmt.Fprintf(w, "%s, err := d.ReadBits(%d)\nif err != nil {\n%s\n}\nd.Align()\nif err := d.SkipBits(8 * (int(%s) + 1)); err != nil {\n%s\n}\n", n, bits.Len(uint(maxOctets-1)), fail, n, fail)
				break
			}
			fmt.Fprintf(w, "if _, err := d.Get%s(%s); err != nil {\n%s\n}\n", form, bounds, fail)
			break
		}
		if form != "Constrained" {
			return fmt.Errorf("a scanned INTEGER must be constrained, not %s", form)
		}
		x := g.tmp("x")
		w.WriteString("at := d.BitOffset()\n")
		emitInt(w, x, r.Value, fail)
		fmt.Fprintf(w, "d.%s(int64(%s), at)\n", val, x)
	case KindEnumerated:
		root, _ := enumIndexes(r)
		if !r.Extensible {
			skipBits(w, bits.Len(uint(len(root)-1)), false, fail)
			break
		}
		x := g.tmp("x")
		emitIndex(w, x, "", len(root), true, fail)
		fmt.Fprintf(w, "_ = %s\n", x)
	case KindBoolean:
		skipBits(w, 1, false, fail)
	case KindNull:
	case KindOctetString:
		if z := r.Size; val == "" && z != nil && z.HasLower && z.HasUpper && z.Lower == z.Upper && !z.Extensible && z.Upper < 1<<16 {
			// Fixed size: a bit-field up to two octets, else aligned.
			skipBits(w, int(8*z.Upper), z.Upper > 2, fail)
			break
		}
		if z := r.Size; z == nil && val == "" {
			fmt.Fprintf(w, "if err := d.SkipUnboundedOctets(); err != nil {\n%s\n}\n", fail)
			break
		}
		if z := r.Size; val != "" && z != nil && z.HasLower && z.HasUpper && !z.Extensible && z.Lower < z.Upper && z.Upper-z.Lower < 255 && z.Upper > 2 {
			fmt.Fprintf(w, "b, err := d.%s\nif err != nil {\n%s\n}\nd.%s(b)\n", octetsCall(z, lb, ub, ext), fail, val)
			break
		}
		if z := r.Size; z != nil && z.HasLower && z.HasUpper && !z.Extensible && z.Lower < z.Upper && z.Upper < 1<<16 && z.Upper > 1 {
			// X.691 16.8: the count in bits of the range, then the octets,
			// aligned.
			n := g.tmp("n")
			fmt.Fprintf(w, "%s, err := d.ReadBits(%d)\nif err != nil {\n%s\n}\nif %s > %d {\nreturn %s\n}\nd.Align()\n", n, bits.Len64(uint64(z.Upper-z.Lower)), fail, n, z.Upper-z.Lower,
				fmt.Sprintf(ret, fmt.Sprintf("d.errorf(\"length %%d outside SIZE(%d..%d)\", %s+%d)", z.Lower, z.Upper, n, z.Lower)))
			if val == "" {
				fmt.Fprintf(w, "if err := d.SkipBits(8 * (int(%s) + %d)); err != nil {\n%s\n}\n", n, z.Lower, fail)
			} else {
				fmt.Fprintf(w, "b, err := d.TakeOctets(int(%s) + %d)\nif err != nil {\n%s\n}\nd.%s(b)\n", n, z.Lower, fail, val)
			}
			break
		}
		if val == "" {
			fmt.Fprintf(w, "if err := d.SkipOctetString(%s, %s, %v); err != nil {\n%s\n}\n", lb, ub, ext, fail)
			break
		}
		if z := r.Size; z != nil && z.HasUpper && z.Upper <= 2 {
			return fmt.Errorf("a scanned OCTET STRING must be octet-aligned (SIZE > 2)")
		}
		fmt.Fprintf(w, "b, err := d.%s\nif err != nil {\n%s\n}\nd.%s(b)\n", octetsCall(r.Size, lb, ub, ext), fail, val)
	case KindIA5String, KindVisibleString, KindPrintableString:
		cs := g.scanCharset(r)
		if n, ok := fixedSize(r.Size); ok && val == "" && r.Alphabet == "" {
			// 8 bits a character in ALIGNED PER, aligned past 16 bits.
			skipBits(w, 8*n, 8*n > 16, fail)
			break
		}
		if val == "" {
			fmt.Fprintf(w, "if err := d.SkipString(%s, %s, %v, %s); err != nil {\n%s\n}\n", lb, ub, ext, cs, fail)
			break
		}
		fmt.Fprintf(w, "b, err := d.GetString(%s, %s, %v, %s)\nif err != nil {\n%s\n}\nd.%s(b)\n", lb, ub, ext, cs, fail, val)
	case KindBitString:
		fmt.Fprintf(w, "if err := d.SkipBitString(%s, %s, %v); err != nil {\n%s\n}\n", lb, ub, ext, fail)
	case KindObjectIdentifier:
		fmt.Fprintf(w, "if err := d.SkipObjectIdentifier(); err != nil {\n%s\n}\n", fail)
	case KindSequence, KindSet, KindChoice:
		name := g.f.named[r]
		fmt.Fprintf(w, "if err := scan%s%s(d); err != nil {\n%s\n}\n", name, g.funcSuffix(name, v.N), fail)
	case KindSequenceOf, KindSetOf:
		return g.scanList(v, r, val, ret)
	default:
		return fmt.Errorf("PER scan: %s is not supported", r.Kind)
	}
	return nil
}

// scanList emits the passing of a SEQUENCE OF or SET OF, its count (of
// every fragment) charged against the element limit.
func (g *perScanGen) scanList(v *Version, r *Type, val, ret string) error {
	w := &g.w
	fail := "return " + fmt.Sprintf(ret, "err")
	k, more, i := g.tmp("k"), g.tmp("more"), g.tmp("i")
	emitCount(w, r.Size, k, more, fail)
	if val != "" {
		fmt.Fprintf(w, "d.%s(%s)\n", val, k)
	}
	fmt.Fprintf(w, "for {\nif err = d.count(%s); err != nil {\n%s\n}\nfor %s := 0; %s < %s; %s++ {\n", k, fail, i, i, k, i)
	if err := g.scanVal(v, r.Elem, "", fmt.Sprintf(ret, "codecerr.AtIndex(%s, "+i+")")); err != nil {
		return err
	}
	fmt.Fprintf(w, "}\nif !%s {\nbreak\n}\nif %s, %s, err = d.GetLengthChunk(0); err != nil {\n%s\n}\n}\n}\n", more, k, more, fail)
	return nil
}

// scanCharset names the alphabet of a character string type: the scanner
// has its own variables, apart from the codec's.
func (g *perScanGen) scanCharset(r *Type) string {
	if r.Alphabet == "" {
		return map[Kind]string{KindIA5String: "x691.IA5String", KindVisibleString: "x691.VisibleString", KindPrintableString: "x691.PrintableString"}[r.Kind]
	}
	if n, ok := g.charsets[r.Alphabet]; ok {
		return n
	}
	n := fmt.Sprintf("scanCharset%d", len(g.charsets)+1)
	g.charsets[r.Alphabet] = n
	return n
}

// constrainedBits is the layout of a constrained whole number of range
// rg (X.691 10.5.7) when it has a fixed size: n bits, after padding to an
// octet boundary if aligned.
func constrainedBits(rg *Range) (n int, aligned, ok bool) {
	if rg == nil || !rg.HasLower || !rg.HasUpper || rg.Extensible {
		return 0, false, false
	}
	switch rng1 := uint64(rg.Upper) - uint64(rg.Lower); {
	case rng1 < 255:
		return bits.Len64(rng1), false, true
	case rng1 == 255:
		return 8, true, true
	case rng1 <= 0xFFFF:
		return 16, true, true
	}
	return 0, false, false
}

// skipBits emits the passing of a fixed-size field of n bits.
func skipBits(w *bytes.Buffer, n int, aligned bool, fail string) {
	if aligned {
		w.WriteString("d.Align()\n")
	}
	if n > 0 {
		fmt.Fprintf(w, "if err := d.SkipBits(%d); err != nil {\n%s\n}\n", n, fail)
	}
}

// fixedBits is the size of a value of type t when it is a bit-field of
// fixed size (nothing aligned, nothing the scanner reports), which a run
// of them can be skipped at once.
func (g *perScanGen) fixedBits(v *Version, t *Type, depth int) (int, bool) {
	r, err := v.Resolve(t)
	if err != nil || depth > 8 {
		return 0, false
	}
	switch r.Kind {
	case KindBoolean:
		return 1, true
	case KindNull:
		return 0, true
	case KindInteger:
		n, aligned, ok := constrainedBits(r.Value)
		return n, ok && !aligned
	case KindEnumerated:
		root, _ := enumIndexes(r)
		return bits.Len(uint(len(root) - 1)), !r.Extensible
	case KindOctetString:
		if z := r.Size; z != nil && z.HasLower && z.HasUpper && z.Lower == z.Upper && !z.Extensible && z.Upper <= 2 {
			return int(8 * z.Upper), true
		}
	case KindSequence:
		name := g.f.named[r]
		if r.Extensible || perScanHooks[name] != (scanHook{}) {
			return 0, false
		}
		total := 0
		for _, c := range r.Components {
			n, ok := g.fixedBits(v, c.Type, depth+1)
			if !ok || c.Optional || c.Default != "" || perScanHooks[name+"."+c.Name] != (scanHook{}) {
				return 0, false
			}
			total += n
		}
		return total, true
	}
	return 0, false
}
