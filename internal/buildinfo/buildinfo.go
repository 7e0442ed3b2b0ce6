// Package buildinfo reports what a binary was built from: the module
// version, the VCS revision and the Go version, read from the build
// information the Go toolchain embeds (runtime/debug.ReadBuildInfo), so
// that nothing has to be stamped in with -ldflags.
package buildinfo

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/prometheus/client_golang/prometheus"
)

// Info describes a build. Fields the toolchain did not record are empty
// ("go run" and "go test" record no VCS revision; a build outside a
// repository or with -buildvcs=false neither).
type Info struct {
	// Version is the main module's version: a tag such as v1.2.3, a
	// pseudo-version, or "(devel)" for a build in the source tree.
	Version string
	// Revision is the VCS commit the build came from, Time its commit
	// time (RFC 3339), and Modified whether the tree had local changes.
	Revision string
	Time     string
	Modified bool
	// GoVersion is the toolchain that built the binary, as runtime.Version.
	GoVersion string
	// Platform is GOOS/GOARCH.
	Platform string
}

// Read returns the running binary's build information.
func Read() Info {
	info := Info{Version: "(devel)", GoVersion: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return info
	}
	if v := bi.Main.Version; v != "" {
		info.Version = v
	}
	if bi.GoVersion != "" {
		info.GoVersion = bi.GoVersion
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			info.Revision = s.Value
		case "vcs.time":
			info.Time = s.Value
		case "vcs.modified":
			info.Modified = s.Value == "true"
		}
	}
	return info
}

// ShortRevision is the first 12 hex digits of the revision, with
// "+dirty" when the tree had local changes; "unknown" without a revision.
func (i Info) ShortRevision() string {
	if i.Revision == "" {
		return "unknown"
	}
	r := i.Revision
	if len(r) > 12 {
		r = r[:12]
	}
	if i.Modified {
		r += "+dirty"
	}
	return r
}

// String is one line: "megaco v1.2.3 (revision 0123456789ab, 2026-01-02T03:04:05Z) go1.26.8 linux/amd64".
func (i Info) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "megaco %s (revision %s", i.Version, i.ShortRevision())
	if i.Time != "" {
		fmt.Fprintf(&b, ", %s", i.Time)
	}
	fmt.Fprintf(&b, ") %s %s", i.GoVersion, i.Platform)
	return b.String()
}

// Collector is the megaco_build_info gauge: always 1, with what the
// binary was built from as labels, so that dashboards and alerts can tell
// which version each instance runs (join on instance). The service and
// the proxy both register it.
func Collector() prometheus.Collector {
	i := Read()
	return prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "megaco_build_info",
		Help: "Always 1; the labels say what the binary was built from (module version, VCS revision, Go version).",
		ConstLabels: prometheus.Labels{
			"version": i.Version, "revision": i.ShortRevision(), "goversion": i.GoVersion,
		},
	}, func() float64 { return 1 })
}
