package asn1gen

import (
	"bytes"
	"fmt"
	"go/format"
	"strings"
)

// ScanComponents are the components the BER scanner (ber.Scan and
// ber.Rewrite) reads, as paths from a type assignment through component
// names (inline types included). A path ending in ".*" stands for every
// alternative of a CHOICE, in order: the scanner maps an alternative's
// position to its kind (scan.TxKind, scan.CommandKind, scan.MIDKind).
var ScanComponents = []string{
	"MegacoMessage.authHeader", "MegacoMessage.mess",
	"Message.version", "Message.mId", "Message.messageBody",
	"Message.messageBody.messageError", "Message.messageBody.transactions",
	"MId.*",
	"IP4Address.address", "IP4Address.portNumber",
	"IP6Address.address", "IP6Address.portNumber",
	"DomainName.name", "DomainName.portNumber",
	"Transaction.*",
	"TransactionRequest.transactionId", "TransactionRequest.actions",
	"TransactionPending.transactionId",
	"TransactionReply.transactionId", "TransactionReply.immAckRequired",
	"TransactionReply.transactionResult", "TransactionReply.segmentNumber",
	"TransactionReply.segmentationComplete",
	"TransactionReply.transactionResult.transactionError",
	"TransactionReply.transactionResult.actionReplies",
	"SegmentReply.transactionId", "SegmentReply.segmentNumber", "SegmentReply.segmentationComplete",
	"TransactionAck.firstAck", "TransactionAck.lastAck",
	"ErrorDescriptor.errorCode",
	"ActionRequest.contextId", "ActionRequest.commandRequests",
	"ActionReply.contextId", "ActionReply.errorDescriptor", "ActionReply.commandReply",
	"CommandRequest.command", "CommandRequest.optional", "CommandRequest.wildcardReturn",
	"Command.*", "CommandReply.*",
	"AmmRequest.terminationID", "AmmsReply.terminationID", "AmmsReply.terminationAudit",
	"SubtractRequest.terminationID",
	"AuditRequest.terminationID", "AuditRequest.terminationIDList",
	"AuditReply.contextAuditResult", "AuditReply.error", "AuditReply.auditResult",
	"AuditReply.auditResultTermList",
	"AuditResult.terminationID", "AuditResult.terminationAuditResult",
	"TermListAuditResult.terminationIDList", "TermListAuditResult.terminationAuditResult",
	"AuditReturnParameter.errorDescriptor",
	"NotifyRequest.terminationID", "NotifyRequest.errorDescriptor",
	"NotifyReply.terminationID", "NotifyReply.errorDescriptor",
	"ServiceChangeRequest.terminationID",
	"ServiceChangeReply.terminationID", "ServiceChangeReply.serviceChangeResult",
	"ServiceChangeResult.errorDescriptor",
	"TerminationID.wildcard", "TerminationID.id",
}

// noTag stands for a component a version lacks: no header has it, since
// the decoder refuses tag numbers of more than 28 bits.
const noTag = ^uint32(0)

// EmitScanTags writes the tags of ScanComponents in every version, so
// that the scanner's tag numbers come from the modules as the codec's do.
func (f *Family) EmitScanTags(pkg string) ([]byte, error) {
	var decl, vals bytes.Buffer
	for _, p := range ScanComponents {
		name := scanFieldName(p)
		if strings.HasSuffix(p, ".*") {
			n, err := f.alternativeCount(strings.TrimSuffix(p, ".*"))
			if err != nil {
				return nil, err
			}
			fmt.Fprintf(&decl, "%s [%d]uint32 // the alternatives of %s, in order\n", name, n, strings.TrimSuffix(p, ".*"))
		} else {
			fmt.Fprintf(&decl, "%s uint32 // %s\n", name, p)
		}
	}
	if err := f.checkScanPaths(); err != nil {
		return nil, err
	}
	for _, v := range f.Versions {
		fmt.Fprintf(&vals, "%d: {\n", v.N)
		for _, p := range ScanComponents {
			s, err := f.scanTagValue(v, p)
			if err != nil {
				return nil, err
			}
			fmt.Fprintf(&vals, "%s: %s,\n", scanFieldName(p), s)
		}
		vals.WriteString("},\n")
	}
	var w bytes.Buffer
	w.WriteString(Header)
	fmt.Fprintf(&w, "package %s\n\n", pkg)
	fmt.Fprintf(&w, "// noTag stands for a component a version lacks: it matches no header.\nconst noTag = %#x\n\n", noTag)
	w.WriteString("// scanTagSet holds, for one protocol version, the tag (class and number,\n// as header.tag has them) of each component the scanner reads.\ntype scanTagSet struct {\n")
	w.Write(decl.Bytes())
	w.WriteString("}\n\n// scanTags is indexed by protocol version.\nvar scanTags = [4]scanTagSet{\n")
	w.Write(vals.Bytes())
	w.WriteString("}\n")
	return format.Source(w.Bytes())
}

func scanFieldName(path string) string {
	var b strings.Builder
	for _, s := range strings.Split(strings.TrimSuffix(path, ".*"), ".") {
		b.WriteString(goName(s))
	}
	return b.String()
}

// scanTagValue renders the tag (or the tags of the alternatives) of path
// in version v.
func (f *Family) scanTagValue(v *Version, path string) (string, error) {
	if alts, ok := strings.CutSuffix(path, ".*"); ok {
		n, err := f.alternativeCount(alts)
		if err != nil {
			return "", err
		}
		t, err := scanResolve(v, alts)
		if err != nil {
			return "", err
		}
		keys := make([]string, n)
		for i := range keys {
			keys[i] = fmt.Sprintf("%#x", noTag)
			if t != nil && i < len(t.Components) {
				k, err := outerTag(v, t.Components[i].Type)
				if err != nil {
					return "", fmt.Errorf("%s: %w", path, err)
				}
				keys[i] = fmt.Sprintf("%#x", k)
			}
		}
		return fmt.Sprintf("[%d]uint32{%s}", n, strings.Join(keys, ", ")), nil
	}
	i := strings.LastIndexByte(path, '.')
	t, err := scanResolve(v, path[:i])
	if err != nil || t == nil {
		return fmt.Sprintf("%#x", noTag), err
	}
	for _, c := range t.Components {
		if c.Name == path[i+1:] {
			k, err := outerTag(v, c.Type)
			if err != nil {
				return "", fmt.Errorf("%s: %w", path, err)
			}
			return fmt.Sprintf("%#x", k), nil
		}
	}
	// A component added in a later version.
	return fmt.Sprintf("%#x", noTag), nil
}

// checkScanPaths fails for a path that names a component no version
// has (a typo would otherwise read as "added later" everywhere).
func (f *Family) checkScanPaths() error {
	absent := fmt.Sprintf("%#x", noTag)
	for _, p := range ScanComponents {
		found := false
		for _, v := range f.Versions {
			s, err := f.scanTagValue(v, p)
			if err != nil {
				return err
			}
			found = found || s != absent && !strings.HasSuffix(s, "uint32{}")
		}
		if !found {
			return fmt.Errorf("scan tags: no version has %s", p)
		}
	}
	return nil
}

// alternativeCount is the most alternatives the CHOICE at path has in
// any version; their names must agree position by position, so that a
// position means one alternative in every version.
func (f *Family) alternativeCount(path string) (int, error) {
	var names []string
	for _, v := range f.Versions {
		t, err := scanResolve(v, path)
		if err != nil {
			return 0, err
		}
		if t == nil {
			continue
		}
		if t.Kind != KindChoice {
			return 0, fmt.Errorf("scan tags: %s is not a CHOICE", path)
		}
		for i, c := range t.Components {
			if i < len(names) && names[i] != c.Name {
				return 0, fmt.Errorf("scan tags: alternative %d of %s is %s in one version, %s in another", i, path, names[i], c.Name)
			}
			if i >= len(names) {
				names = append(names, c.Name)
			}
		}
	}
	return len(names), nil
}

// scanResolve follows path from its type assignment through component
// names to the built-in type it ends at; nil when version v lacks a
// component on the way.
func scanResolve(v *Version, path string) (*Type, error) {
	segs := strings.Split(path, ".")
	a := v.Module.Lookup(segs[0])
	if a == nil {
		return nil, nil // a type added in a later version
	}
	t, err := v.Resolve(a.Type)
	if err != nil {
		return nil, err
	}
	for _, s := range segs[1:] {
		var next *Type
		for _, c := range t.Components {
			if c.Name == s {
				next = c.Type
			}
		}
		if next == nil {
			return nil, nil
		}
		if t, err = v.Resolve(next); err != nil {
			return nil, err
		}
	}
	return t, nil
}

func outerTag(v *Version, t *Type) (uint32, error) {
	tags, err := v.Tags(t)
	if err != nil {
		return 0, err
	}
	if len(tags) == 0 {
		return 0, fmt.Errorf("an untagged CHOICE has no tag of its own")
	}
	return tags[0].Key(), nil
}
