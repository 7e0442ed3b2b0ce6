// Package k8stest renders every kustomization under deploy/k8s with
// kustomize (its Go library, as `kubectl kustomize` does, offline) and
// checks the objects: each decodes strictly into the official Kubernetes
// API types (k8s.io/api) or the Prometheus Operator's, with unknown fields
// as errors, and the things that are easy to get wrong and that no
// schema catches hold (probe ports exist, selectors match labels, the HPA
// targets a Deployment with CPU requests, limits and security settings
// are set, the grace period outlasts the drain).
package k8stest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/intstr"
	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/kyaml/filesys"
	"sigs.k8s.io/yaml"
)

// objects are one kustomization's rendered objects, by kind.
type objects struct {
	deployments     []*appsv1.Deployment
	services        []*corev1.Service
	hpas            []*autoscalingv2.HorizontalPodAutoscaler
	pdbs            []*policyv1.PodDisruptionBudget
	netpols         []*networkingv1.NetworkPolicy
	podMonitors     []*monitoringv1.PodMonitor
	serviceMonitors []*monitoringv1.ServiceMonitor
}

// kustomizations lists the directories under deploy/k8s with a
// kustomization.yaml.
func kustomizations(t *testing.T) []string {
	var dirs []string
	err := filepath.WalkDir("../k8s", func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Name() == "kustomization.yaml" {
			dirs = append(dirs, filepath.Dir(p))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"../k8s/base", "../k8s/sidecar"} {
		if !slices.Contains(dirs, want) {
			t.Fatalf("no kustomization in %s (found %v)", want, dirs)
		}
	}
	return dirs
}

// render runs kustomize on dir and decodes every object strictly.
func render(t *testing.T, dir string) *objects {
	t.Helper()
	rm, err := krusty.MakeKustomizer(krusty.MakeDefaultOptions()).Run(filesys.MakeFsOnDisk(), dir)
	if err != nil {
		t.Fatalf("kustomize %s: %v", dir, err)
	}
	o := &objects{}
	for _, r := range rm.Resources() {
		y, err := r.AsYAML()
		if err != nil {
			t.Fatal(err)
		}
		id := r.GetKind() + "/" + r.GetName()
		apiVersion := r.GetApiVersion()
		if err := o.add(apiVersion, r.GetKind(), y); err != nil {
			t.Errorf("%s: %s: %v", dir, id, err)
		}
	}
	return o
}

// newObject appends a new T to list and returns it to decode into.
func newObject[T any](list *[]*T) *T {
	v := new(T)
	*list = append(*list, v)
	return v
}

// add decodes one object into its type; unknown fields (a typo, a field
// at the wrong level, one of a newer API) and unknown kinds are errors.
func (o *objects) add(apiVersion, kind string, y []byte) error {
	var (
		v    any
		want string
	)
	switch kind {
	case "Deployment":
		v, want = newObject(&o.deployments), "apps/v1"
	case "Service":
		v, want = newObject(&o.services), "v1"
	case "HorizontalPodAutoscaler":
		v, want = newObject(&o.hpas), "autoscaling/v2"
	case "PodDisruptionBudget":
		v, want = newObject(&o.pdbs), "policy/v1"
	case "NetworkPolicy":
		v, want = newObject(&o.netpols), "networking.k8s.io/v1"
	case "PodMonitor":
		v, want = newObject(&o.podMonitors), "monitoring.coreos.com/v1"
	case "ServiceMonitor":
		v, want = newObject(&o.serviceMonitors), "monitoring.coreos.com/v1"
	default:
		return fmt.Errorf("kind %s has no check here: add its type", kind)
	}
	if apiVersion != want {
		return fmt.Errorf("apiVersion %s, want %s", apiVersion, want)
	}
	j, err := yaml.YAMLToJSON(y)
	if err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(j))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

func TestKustomizations(t *testing.T) {
	for _, dir := range kustomizations(t) {
		t.Run(strings.TrimPrefix(dir, "../k8s/"), func(t *testing.T) {
			o := render(t, dir)
			if len(o.deployments) == 0 {
				t.Fatal("no Deployment")
			}
			for _, d := range o.deployments {
				checkDeployment(t, d)
			}
			checkSelectors(t, o)
			for _, h := range o.hpas {
				checkHPA(t, h, o)
			}
		})
	}
}

// The base has every object the issue asks for.
func TestBaseObjects(t *testing.T) {
	o := render(t, "../k8s/base")
	if len(o.hpas) != 1 || len(o.pdbs) != 1 || len(o.netpols) != 1 || len(o.podMonitors)+len(o.serviceMonitors) == 0 {
		t.Errorf("base: %d HPAs, %d PDBs, %d NetworkPolicies, %d PodMonitors, %d ServiceMonitors",
			len(o.hpas), len(o.pdbs), len(o.netpols), len(o.podMonitors), len(o.serviceMonitors))
	}
	var clusterIP, headless bool
	for _, s := range o.services {
		hasGRPC := slices.ContainsFunc(s.Spec.Ports, func(p corev1.ServicePort) bool { return p.Name == "grpc" })
		if s.Spec.ClusterIP == corev1.ClusterIPNone {
			headless = hasGRPC
			if s.Spec.PublishNotReadyAddresses {
				t.Errorf("Service %s publishes pods that are not ready (draining ones too)", s.Name)
			}
		} else {
			clusterIP = hasGRPC && slices.ContainsFunc(s.Spec.Ports, func(p corev1.ServicePort) bool { return p.Name == "http" })
		}
	}
	if !clusterIP || !headless {
		t.Errorf("want a Service with grpc and http ports (%v) and a headless one with grpc (%v)", clusterIP, headless)
	}
	c := o.deployments[0].Spec.Template.Spec.Containers[0]
	if c.ReadinessProbe == nil || c.ReadinessProbe.HTTPGet == nil || c.ReadinessProbe.HTTPGet.Path != "/readyz" {
		t.Errorf("readiness probe: %+v, want GET /readyz", c.ReadinessProbe)
	}
	if c.LivenessProbe == nil || c.LivenessProbe.HTTPGet == nil || c.LivenessProbe.HTTPGet.Path != "/healthz" {
		t.Errorf("liveness probe: %+v, want GET /healthz", c.LivenessProbe)
	}
}

// The sidecar example has megaco proxy beside the gateway, with the
// Megaco ports on UDP and TCP.
func TestSidecar(t *testing.T) {
	o := render(t, "../k8s/sidecar")
	pod := o.deployments[0].Spec.Template.Spec
	proxies := 0
	ports := map[string]bool{}
	for _, c := range pod.Containers {
		for _, p := range c.Ports {
			ports[fmt.Sprintf("%d/%s", p.ContainerPort, p.Protocol)] = true
		}
		if len(c.Args) > 0 && c.Args[0] == "proxy" {
			proxies++
			for _, f := range []string{"--mgc-codec=", "--mgc-listen=", "--mgc=", "--mg-codec=", "--mg-listen=", "--mg=", "--http-addr="} {
				if !slices.ContainsFunc(c.Args, func(a string) bool { return strings.HasPrefix(a, f) }) {
					t.Errorf("container %s: no %s flag", c.Name, f)
				}
			}
		}
	}
	if len(pod.Containers) < 2 || proxies == 0 {
		t.Errorf("%d containers, %d running megaco proxy: want the gateway and the proxy", len(pod.Containers), proxies)
	}
	for _, p := range []string{"2944/UDP", "2944/TCP", "2945/UDP", "2945/TCP"} {
		if !ports[p] {
			t.Errorf("no container port %s (have %v)", p, ports)
		}
	}
}

var portName = regexp.MustCompile(`^[a-z0-9]([a-z0-9-]{0,13}[a-z0-9])?$`)

func checkDeployment(t *testing.T, d *appsv1.Deployment) {
	spec := d.Spec.Template.Spec
	sel, err := metav1.LabelSelectorAsSelector(d.Spec.Selector)
	if err != nil || sel.Empty() || !sel.Matches(labels.Set(d.Spec.Template.Labels)) {
		t.Errorf("Deployment %s: selector %v does not match its pod labels %v (%v)", d.Name, d.Spec.Selector, d.Spec.Template.Labels, err)
	}
	psc := spec.SecurityContext
	if psc == nil {
		psc = &corev1.PodSecurityContext{}
	}
	if spec.AutomountServiceAccountToken == nil || *spec.AutomountServiceAccountToken {
		t.Errorf("Deployment %s: mounts a service account token it does not need", d.Name)
	}
	for _, c := range spec.Containers {
		name := d.Name + "/" + c.Name
		checkResources(t, name, c)
		checkSecurity(t, name, c, psc)
		for _, p := range c.Ports {
			if !portName.MatchString(p.Name) {
				t.Errorf("%s: port name %q is not a valid port name (lowercase, at most 15)", name, p.Name)
			}
		}
		for kind, p := range map[string]*corev1.Probe{"liveness": c.LivenessProbe, "readiness": c.ReadinessProbe, "startup": c.StartupProbe} {
			checkProbePort(t, name, kind, c, p)
		}
		if c.Image == "megaco" || strings.Contains(c.Image, "/megaco") {
			checkMegaco(t, name, d, c)
		}
	}
}

func checkResources(t *testing.T, name string, c corev1.Container) {
	for _, r := range []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory} {
		req, okReq := c.Resources.Requests[r]
		lim, okLim := c.Resources.Limits[r]
		if !okReq || !okLim {
			t.Errorf("%s: %s request or limit not set", name, r)
		} else if req.Cmp(lim) > 0 {
			t.Errorf("%s: %s request %s above limit %s", name, r, req.String(), lim.String())
		}
	}
}

func checkSecurity(t *testing.T, name string, c corev1.Container, psc *corev1.PodSecurityContext) {
	sc := c.SecurityContext
	if sc == nil {
		t.Errorf("%s: no securityContext", name)
		return
	}
	nonRoot := sc.RunAsNonRoot
	if nonRoot == nil {
		nonRoot = psc.RunAsNonRoot
	}
	uid := sc.RunAsUser
	if uid == nil {
		uid = psc.RunAsUser
	}
	seccomp := sc.SeccompProfile
	if seccomp == nil {
		seccomp = psc.SeccompProfile
	}
	switch {
	case nonRoot == nil || !*nonRoot:
		t.Errorf("%s: runAsNonRoot not set", name)
	case uid != nil && *uid == 0:
		t.Errorf("%s: runs as uid 0", name)
	case sc.ReadOnlyRootFilesystem == nil || !*sc.ReadOnlyRootFilesystem:
		t.Errorf("%s: root filesystem is writable", name)
	case sc.AllowPrivilegeEscalation == nil || *sc.AllowPrivilegeEscalation:
		t.Errorf("%s: allowPrivilegeEscalation not false", name)
	case sc.Privileged != nil && *sc.Privileged:
		t.Errorf("%s: privileged", name)
	case sc.Capabilities == nil || !slices.Contains(sc.Capabilities.Drop, "ALL") || len(sc.Capabilities.Add) > 0:
		t.Errorf("%s: capabilities %+v, want drop ALL, add none", name, sc.Capabilities)
	case seccomp == nil || seccomp.Type != corev1.SeccompProfileTypeRuntimeDefault:
		t.Errorf("%s: seccomp profile %+v, want RuntimeDefault", name, seccomp)
	}
}

// checkProbePort: a probe's port must be one the container declares
// (a named port that does not exist fails every probe, and a mistyped
// number probes nothing), over TCP.
func checkProbePort(t *testing.T, name, kind string, c corev1.Container, p *corev1.Probe) {
	if p == nil {
		return
	}
	var port intstr.IntOrString
	switch {
	case p.HTTPGet != nil:
		port = p.HTTPGet.Port
	case p.TCPSocket != nil:
		port = p.TCPSocket.Port
	case p.GRPC != nil:
		port = intstr.FromInt32(p.GRPC.Port)
	default:
		return
	}
	if _, ok := containerPort(c, port, corev1.ProtocolTCP); !ok {
		t.Errorf("%s: %s probe port %s is not a TCP port of the container", name, kind, port.String())
	}
}

// containerPort finds a port of c by name or number and protocol.
func containerPort(c corev1.Container, port intstr.IntOrString, proto corev1.Protocol) (corev1.ContainerPort, bool) {
	for _, p := range c.Ports {
		pr := p.Protocol
		if pr == "" {
			pr = corev1.ProtocolTCP
		}
		if pr != proto {
			continue
		}
		if port.Type == intstr.String && p.Name == port.StrVal || port.Type == intstr.Int && p.ContainerPort == port.IntVal {
			return p, true
		}
	}
	return corev1.ContainerPort{}, false
}

// checkMegaco: the megaco container's memory limit reaches the Go runtime
// and the grace period outlasts preStop plus the drain.
func checkMegaco(t *testing.T, name string, d *appsv1.Deployment, c corev1.Container) {
	i := slices.IndexFunc(c.Env, func(e corev1.EnvVar) bool { return e.Name == "GOMEMLIMIT" })
	if i < 0 || c.Env[i].ValueFrom == nil || c.Env[i].ValueFrom.ResourceFieldRef == nil ||
		c.Env[i].ValueFrom.ResourceFieldRef.Resource != "limits.memory" || c.Env[i].ValueFrom.ResourceFieldRef.ContainerName != c.Name {
		t.Errorf("%s: GOMEMLIMIT is not set from this container's limits.memory", name)
	}
	drain := 10 * time.Second // the default of serve's --drain-timeout
	for _, a := range c.Args {
		if v, ok := strings.CutPrefix(a, "--drain-timeout="); ok {
			var err error
			if drain, err = time.ParseDuration(v); err != nil {
				t.Errorf("%s: %s: %v", name, a, err)
			}
		}
	}
	var preStop time.Duration
	if c.Lifecycle != nil && c.Lifecycle.PreStop != nil && c.Lifecycle.PreStop.Sleep != nil {
		preStop = time.Duration(c.Lifecycle.PreStop.Sleep.Seconds) * time.Second
	}
	grace := 30 * time.Second
	if g := d.Spec.Template.Spec.TerminationGracePeriodSeconds; g != nil {
		grace = time.Duration(*g) * time.Second
	}
	if grace <= preStop+drain {
		t.Errorf("%s: terminationGracePeriodSeconds %v does not outlast preStop %v + drain %v", name, grace, preStop, drain)
	}
}

// podsOf returns the Deployments whose pods a selector picks.
func podsOf(o *objects, sel labels.Selector) []*appsv1.Deployment {
	var out []*appsv1.Deployment
	for _, d := range o.deployments {
		if sel.Matches(labels.Set(d.Spec.Template.Labels)) {
			out = append(out, d)
		}
	}
	return out
}

// hasPort says whether some container of d has the port.
func hasPort(d *appsv1.Deployment, port intstr.IntOrString, proto corev1.Protocol) bool {
	return slices.ContainsFunc(d.Spec.Template.Spec.Containers, func(c corev1.Container) bool {
		_, ok := containerPort(c, port, proto)
		return ok
	})
}

func proto(p *corev1.Protocol) corev1.Protocol {
	if p == nil || *p == "" {
		return corev1.ProtocolTCP
	}
	return *p
}

// checkSelectors: every Service, PDB, NetworkPolicy and monitor selects
// some pods here, and the ports they name are ports of those pods.
func checkSelectors(t *testing.T, o *objects) {
	for _, s := range o.services {
		ds := podsOf(o, labels.SelectorFromSet(s.Spec.Selector))
		if len(s.Spec.Selector) == 0 || len(ds) == 0 {
			t.Errorf("Service %s selects no pods (%v)", s.Name, s.Spec.Selector)
		}
		for _, d := range ds {
			for _, p := range s.Spec.Ports {
				if !hasPort(d, p.TargetPort, proto(&p.Protocol)) {
					t.Errorf("Service %s port %s: target %s/%s is not a port of Deployment %s", s.Name, p.Name, p.TargetPort.String(), proto(&p.Protocol), d.Name)
				}
			}
		}
	}
	selects := func(kind, name string, ls *metav1.LabelSelector) []*appsv1.Deployment {
		sel, err := metav1.LabelSelectorAsSelector(ls)
		if err != nil || sel.Empty() {
			t.Errorf("%s %s: empty or bad selector (%v)", kind, name, err)
			return nil
		}
		ds := podsOf(o, sel)
		if len(ds) == 0 {
			t.Errorf("%s %s selects no pods", kind, name)
		}
		return ds
	}
	for _, p := range o.pdbs {
		selects("PodDisruptionBudget", p.Name, p.Spec.Selector)
	}
	for _, n := range o.netpols {
		for _, d := range selects("NetworkPolicy", n.Name, &n.Spec.PodSelector) {
			for _, rule := range n.Spec.Ingress {
				for _, p := range rule.Ports {
					if p.Port != nil && !hasPort(d, *p.Port, proto(p.Protocol)) {
						t.Errorf("NetworkPolicy %s: port %s is not a port of Deployment %s", n.Name, p.Port.String(), d.Name)
					}
				}
			}
		}
	}
	for _, m := range o.podMonitors {
		for _, d := range selects("PodMonitor", m.Name, &m.Spec.Selector) {
			for _, e := range m.Spec.PodMetricsEndpoints {
				if e.Port == nil || !hasPort(d, intstr.FromString(*e.Port), corev1.ProtocolTCP) {
					t.Errorf("PodMonitor %s: endpoint port %v is not a named port of Deployment %s", m.Name, e.Port, d.Name)
				}
			}
		}
	}
	for _, m := range o.serviceMonitors {
		found := false
		for _, s := range o.services {
			sel, err := metav1.LabelSelectorAsSelector(&m.Spec.Selector)
			found = found || err == nil && !sel.Empty() && sel.Matches(labels.Set(s.Labels))
		}
		if !found {
			t.Errorf("ServiceMonitor %s selects no Service", m.Name)
		}
	}
}

// checkHPA: the HPA scales a Deployment rendered here, and CPU
// utilization has requests to be measured against.
func checkHPA(t *testing.T, h *autoscalingv2.HorizontalPodAutoscaler, o *objects) {
	ref := h.Spec.ScaleTargetRef
	i := slices.IndexFunc(o.deployments, func(d *appsv1.Deployment) bool { return d.Name == ref.Name })
	if ref.Kind != "Deployment" || ref.APIVersion != "apps/v1" || i < 0 {
		t.Errorf("HPA %s targets %s %s/%s, not a Deployment here", h.Name, ref.APIVersion, ref.Kind, ref.Name)
		return
	}
	if h.Spec.MinReplicas == nil || *h.Spec.MinReplicas < 2 || h.Spec.MaxReplicas < *h.Spec.MinReplicas {
		t.Errorf("HPA %s: min %v max %d: want at least 2 replicas (one can drain while another serves)", h.Name, h.Spec.MinReplicas, h.Spec.MaxReplicas)
	}
	for _, m := range h.Spec.Metrics {
		if m.Resource == nil || m.Resource.Name != corev1.ResourceCPU {
			continue
		}
		for _, c := range o.deployments[i].Spec.Template.Spec.Containers {
			if _, ok := c.Resources.Requests[corev1.ResourceCPU]; !ok {
				t.Errorf("HPA %s scales on CPU but container %s has no CPU request", h.Name, c.Name)
			}
		}
		return
	}
	t.Errorf("HPA %s does not scale on CPU", h.Name)
}
