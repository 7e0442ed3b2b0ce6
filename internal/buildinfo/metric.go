package buildinfo

import "github.com/prometheus/client_golang/prometheus"

// Metric is the megaco_build_info gauge every megaco process exports
// (serve and proxy): always 1, with what the binary was built from as
// labels, so that dashboards and alerts can tell which version each
// instance runs (join on instance).
func Metric() prometheus.Collector {
	i := Read()
	return prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "megaco_build_info",
		Help: "Always 1; the labels say what the binary was built from (module version, VCS revision, Go version).",
		ConstLabels: prometheus.Labels{
			"version": i.Version, "revision": i.ShortRevision(), "goversion": i.GoVersion,
		},
	}, func() float64 { return 1 })
}
