package load

import (
	"fmt"
	"net"
	"strings"

	"google.golang.org/grpc"
	"google.golang.org/grpc/resolver"
)

// Spreading calls over service instances. Every connection the generator
// opens balances each call round-robin over all the addresses its target
// resolves to, skipping instances that are not ready: a target
// dns:///megaco-grpc.NS.svc.cluster.local:9090 (a headless Service) reaches
// every replica, and list:///HOST:PORT,HOST:PORT,... names the instances
// outright. An instance that drains (SIGTERM) sends GOAWAY, its calls in
// flight finish, and new calls go to the others: none is lost.

// balanced is the targets to connect to: in unary mode, several
// HOST:PORT targets become one list:/// target, so that every message
// goes to the next ready instance rather than each call being tied to
// one (which loses the calls of an instance that stops). Streams are
// long-lived and stay one set per target.
func balanced(mode string, targets []string) []string {
	if mode == "stream" || len(targets) < 2 {
		return targets
	}
	for _, t := range targets {
		if _, _, err := net.SplitHostPort(t); err != nil || strings.Contains(t, "/") {
			return targets // a resolver's target (dns:///...): keep each
		}
	}
	return []string{listScheme + ":///" + strings.Join(targets, ",")}
}

// listScheme is the target scheme of a fixed list of addresses.
const listScheme = "list"

// roundRobin is the service config of every connection.
const roundRobin = `{"loadBalancingConfig": [{"round_robin": {}}]}`

// balanceOptions are the dial options that spread calls.
func balanceOptions() []grpc.DialOption {
	return []grpc.DialOption{grpc.WithResolvers(listBuilder{}), grpc.WithDefaultServiceConfig(roundRobin)}
}

// listBuilder resolves list:///HOST:PORT,HOST:PORT to those addresses,
// once (the list does not change).
type listBuilder struct{}

func (listBuilder) Scheme() string { return listScheme }

func (listBuilder) Build(target resolver.Target, cc resolver.ClientConn, _ resolver.BuildOptions) (resolver.Resolver, error) {
	eps, err := parseList(target.Endpoint())
	if err != nil {
		return nil, err
	}
	if err := cc.UpdateState(resolver.State{Endpoints: eps}); err != nil {
		return nil, err
	}
	return listResolver{}, nil
}

// parseList reads HOST:PORT,HOST:PORT,... (at least one).
func parseList(s string) ([]resolver.Endpoint, error) {
	var eps []resolver.Endpoint
	for a := range strings.SplitSeq(s, ",") {
		a = strings.TrimSpace(a)
		if _, _, err := net.SplitHostPort(a); err != nil {
			return nil, fmt.Errorf("list target: %q is not HOST:PORT", a)
		}
		eps = append(eps, resolver.Endpoint{Addresses: []resolver.Address{{Addr: a}}})
	}
	return eps, nil
}

// listResolver has nothing to re-resolve.
type listResolver struct{}

func (listResolver) ResolveNow(resolver.ResolveNowOptions) {}
func (listResolver) Close()                                {}
