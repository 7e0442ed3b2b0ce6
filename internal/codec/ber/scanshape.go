package ber

import (
	"megaco/internal/codec/codecerr"
	"megaco/internal/codec/scan"
)

// Below a command, the scanner looks for termination IDs and error
// descriptors only. Which components hold them is data (a shape: the
// components of a SEQUENCE, or the alternatives of a CHOICE, that matter,
// each with its role), built once per version from the generated tags.

// role is what a component holds, for the scanner.
type role uint8

const (
	roleTermList       role = iota + 1 // a TerminationIDList
	roleTerm                           // a TerminationID
	roleError                          // an ErrorDescriptor
	roleAuditReturn                    // a TerminationAudit: error descriptors among its parameters
	roleSCResult                       // a ServiceChangeResult (explicit CHOICE)
	roleAuditReply                     // an AuditReply (explicit CHOICE)
	roleAuditResult                    // an AuditResult
	roleTermListResult                 // a TermListAuditResult
	roleMIDValue                       // the address or name of an mId
	roleMIDPort                        // the port of an mId
)

// part is a component and its role.
type part struct {
	tag  uint32
	role role
}

// shapeSet is what the scanner needs of one version beyond tags.
type shapeSet struct {
	request, reply [9][]part    // a command's components, by scan.CommandKind
	auditReply     []part       // AuditReply's alternatives
	auditResult    []part       // AuditResult's components
	termListResult []part       // TermListAuditResult's components
	address        [6][2]uint32 // by scan.MIDKind: the address's (name's) and port's tags
	txID           [6]uint32    // by scan.TxKind: the transactionId's tag
}

var shapes [4]shapeSet

func init() {
	for v := 1; v < len(scanTags); v++ {
		shapes[v] = newShapes(&scanTags[v])
		if t := &scanTags[v]; t.MegacoMessageMess != anyVersion.MegacoMessageMess || t.MessageVersion != anyVersion.MessageVersion {
			panic("ber: the scanner reads the version before it knows the version's tags, and they differ")
		}
	}
}

func newShapes(t *scanTagSet) shapeSet {
	var s shapeSet
	amm := []part{{t.AmmRequestTerminationID, roleTermList}}
	for _, k := range []scan.CommandKind{scan.Add, scan.Move, scan.Modify} {
		s.request[k] = amm
	}
	s.request[scan.Subtract] = []part{{t.SubtractRequestTerminationID, roleTermList}}
	audit := []part{{t.AuditRequestTerminationID, roleTerm}, {t.AuditRequestTerminationIDList, roleTermList}}
	s.request[scan.AuditCapability], s.request[scan.AuditValue] = audit, audit
	s.request[scan.Notify] = []part{{t.NotifyRequestTerminationID, roleTermList}, {t.NotifyRequestErrorDescriptor, roleError}}
	s.request[scan.ServiceChange] = []part{{t.ServiceChangeRequestTerminationID, roleTermList}}

	amms := []part{{t.AmmsReplyTerminationID, roleTermList}, {t.AmmsReplyTerminationAudit, roleAuditReturn}}
	for _, k := range []scan.CommandKind{scan.Add, scan.Move, scan.Modify, scan.Subtract} {
		s.reply[k] = amms
	}
	s.reply[scan.Notify] = []part{{t.NotifyReplyTerminationID, roleTermList}, {t.NotifyReplyErrorDescriptor, roleError}}
	s.reply[scan.ServiceChange] = []part{{t.ServiceChangeReplyTerminationID, roleTermList}, {t.ServiceChangeReplyServiceChangeResult, roleSCResult}}
	s.auditReply = []part{{t.AuditReplyContextAuditResult, roleTermList}, {t.AuditReplyError, roleError},
		{t.AuditReplyAuditResult, roleAuditResult}, {t.AuditReplyAuditResultTermList, roleTermListResult}}
	s.auditResult = []part{{t.AuditResultTerminationID, roleTerm}, {t.AuditResultTerminationAuditResult, roleAuditReturn}}
	s.termListResult = []part{{t.TermListAuditResultTerminationIDList, roleTermList}, {t.TermListAuditResultTerminationAuditResult, roleAuditReturn}}

	s.address[scan.IP4Address] = [2]uint32{t.IP4AddressAddress, t.IP4AddressPortNumber}
	s.address[scan.IP6Address] = [2]uint32{t.IP6AddressAddress, t.IP6AddressPortNumber}
	s.address[scan.DomainName] = [2]uint32{t.DomainNameName, t.DomainNamePortNumber}
	s.txID = [6]uint32{noTag, t.TransactionRequestTransactionId, t.TransactionPendingTransactionId,
		t.TransactionReplyTransactionId, noTag, t.SegmentReplyTransactionId}
	return s
}

// parts reads the components of SEQUENCE h that shape names, of
// command cmd (or of the mId, cmd -1).
func (d *scanner) parts(h *header, shape []part, cmd int) error {
	if err := d.enter(h); err != nil {
		return err
	}
	var e header
	for off := h.start; off < h.end; off = e.next {
		if err := d.next(&e, off, h.end); err != nil {
			return err
		}
		for _, p := range shape {
			if p.tag == e.tag {
				if err := d.part(&e, p.role, cmd); err != nil {
					return err
				}
				break
			}
		}
	}
	d.leave()
	return nil
}

// part reads component h in its role, for command cmd.
func (d *scanner) part(h *header, r role, cmd int) error {
	switch r {
	case roleTerm:
		return d.term(h, cmd)
	case roleError:
		return d.errorDescriptor(h, -1, cmd)
	case roleAuditResult:
		return d.parts(h, d.sh.auditResult, cmd)
	case roleTermListResult:
		return d.parts(h, d.sh.termListResult, cmd)
	case roleSCResult, roleAuditReply:
		return d.choice(h, r, cmd)
	case roleMIDValue:
		v, err := d.octets(*h)
		if err != nil {
			return err
		}
		d.s.MID.Value = v
		return nil
	case roleMIDPort:
		p, err := d.integer(h, 0, 65535)
		if err != nil {
			return codecerr.At(err, "portNumber")
		}
		d.s.MID.Port = int(p)
		return nil
	}
	// roleTermList, roleAuditReturn: a SEQUENCE OF.
	if r == roleTermList {
		return d.list(h, cmd, elemTerm)
	}
	return d.list(h, cmd, elemAuditReturn)
}

// choice reads an explicitly tagged CHOICE: a service change result (its
// error descriptor, if that is the alternative) or an audit reply.
func (d *scanner) choice(h *header, r role, cmd int) error {
	var a header
	if err := d.explicit(&a, h, anyTag); err != nil {
		return err
	}
	if r == roleSCResult {
		if a.tag == d.t.ServiceChangeResultErrorDescriptor {
			return d.errorDescriptor(&a, -1, cmd)
		}
		return nil
	}
	for _, p := range d.sh.auditReply {
		if p.tag == a.tag {
			return d.part(&a, p.role, cmd)
		}
	}
	return codecerr.At(d.unknownAlternative(a, "extension alternative", "AuditReply"), "auditReply")
}
