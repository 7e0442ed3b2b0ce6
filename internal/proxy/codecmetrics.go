package proxy

import (
	"time"

	"megaco/internal/codec/codecerr"
	"megaco/internal/codecmetrics"
)

// codecMetrics are the codec series the service exports too
// (internal/codecmetrics), so that dashboards read the proxy's codec work
// as they read the service's.
type codecMetrics = codecmetrics.Metrics

var newCodecMetrics = codecmetrics.New

// codecObserver is the codec.Observer of one worker, used by its
// goroutine alone: codecmetrics.Observer counting into the worker's
// shard, made on first use.
type codecObserver struct {
	m     *codecMetrics
	shard int
	o     *codecmetrics.Observer
}

func (o *codecObserver) observer() *codecmetrics.Observer {
	if o.o == nil {
		o.o = o.m.Observer(o.shard)
	}
	return o.o
}

// Done implements codec.Observer.
func (o *codecObserver) Done(name string, op codecerr.Op, version int, took time.Duration, size int) {
	o.observer().Done(name, op, version, took, size)
}

// Failed implements codec.Observer.
func (o *codecObserver) Failed(name string, op codecerr.Op, err error) {
	o.observer().Failed(name, op, err)
}
