package load

import (
	"context"
	"crypto/tls"
	"fmt"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"

	pb "megaco/api/megaco/v1"
)

// Cause is how a message, and so its call, ended.
type Cause int

const (
	OK Cause = iota
	// Timeout: no answer within --timeout.
	Timeout
	// Rejected: the service answered with an error (a gRPC status, or a
	// stream's per-message error).
	Rejected
	// Mismatch: the service's output is not the expected bytes, or does not
	// decode.
	Mismatch
	// Transport: the connection or stream failed (unavailable, reset...).
	Transport
	// Lost (--transport udp|tcp): a request, retransmitted per RFC 3525
	// Annex D.1 over UDP, got no answer within --timeout.
	Lost
	// Late (--transport udp|tcp): a message given up as lost arrived
	// after all (after --timeout).
	Late
	// Aborted: the run was stopped (SIGINT) while the call was in progress;
	// not a failure.
	Aborted
	nCauses
)

// FailureCauses are the causes of a failed call, in report order.
var FailureCauses = []Cause{Timeout, Rejected, Mismatch, Transport, Lost, Late}

// causeNames are the causes' names, by value.
var causeNames = [nCauses]string{"ok", "timeout", "rejected", "mismatch", "transport", "lost", "late", "aborted"}

func (c Cause) String() string {
	if c >= 0 && c < nCauses {
		return causeNames[c]
	}
	return fmt.Sprintf("Cause(%d)", int(c))
}

// transport sends one transcoding request and waits for its answer.
type transport interface {
	transcode(ctx context.Context, req *pb.TranscodeRequest, timeout time.Duration) ([]byte, Cause, error)
	close()
}

// service is a connection to the service and its client: what both
// transports send on.
type service struct {
	conn   *grpc.ClientConn
	client pb.CodecServiceClient
}

// dial connects to the service at target, with TLS when tlsCfg is set.
func dial(target string, tlsCfg *tls.Config) (service, error) {
	creds := insecure.NewCredentials()
	if tlsCfg != nil {
		creds = credentials.NewTLS(tlsCfg)
	}
	conn, err := grpc.NewClient(target, grpc.WithTransportCredentials(creds))
	if err != nil {
		return service{}, err
	}
	return service{conn: conn, client: pb.NewCodecServiceClient(conn)}, nil
}

// classify tells the cause of a failed call. ctx is the call's context:
// when it is done, the run was stopped.
func classify(ctx context.Context, err error) Cause {
	if ctx.Err() != nil {
		return Aborted
	}
	switch status.Code(err) {
	case codes.DeadlineExceeded:
		return Timeout
	case codes.Unavailable, codes.Canceled:
		return Transport
	}
	return Rejected
}

// unary sends each message as one Transcode call.
type unary struct{ service }

func newUnary(target string, tlsCfg *tls.Config) (*unary, error) {
	svc, err := dial(target, tlsCfg)
	if err != nil {
		return nil, err
	}
	return &unary{svc}, nil
}

func (u *unary) transcode(ctx context.Context, req *pb.TranscodeRequest, timeout time.Duration) ([]byte, Cause, error) {
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	resp, err := u.client.Transcode(cctx, req)
	if err != nil {
		return nil, classify(ctx, err), err
	}
	return resp.GetData(), OK, nil
}

func (u *unary) close() { u.conn.Close() }
