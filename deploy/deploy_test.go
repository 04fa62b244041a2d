// Package deploy_test checks the container and Kubernetes files against each other, the code
// and the docs (README.md, docs/serving.md): every manifest decodes, the Deployment probes the
// server's health endpoints, runs as non-root with the token from a Secret and limits consistent
// with --memory × the process pool, and the Dockerfile builds the way the README says.
package deploy_test

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"
)

// object is the part of a Kubernetes object every manifest must have.
type object struct {
	APIVersion string `yaml:"apiVersion"`
	Kind       string `yaml:"kind"`
	Metadata   struct {
		Name   string            `yaml:"name"`
		Labels map[string]string `yaml:"labels"`
	} `yaml:"metadata"`
}

// wantAPIVersion is the apiVersion of each kind the manifests may hold.
var wantAPIVersion = map[string]string{
	"Deployment":              "apps/v1",
	"Service":                 "v1",
	"HorizontalPodAutoscaler": "autoscaling/v2",
	"ConfigMap":               "v1",
	"Kustomization":           "kustomize.config.k8s.io/v1beta1",
}

type probe struct {
	HTTPGet *struct {
		Path string `yaml:"path"`
		Port any    `yaml:"port"`
	} `yaml:"httpGet"`
}

type securityContext struct {
	RunAsNonRoot             *bool `yaml:"runAsNonRoot"`
	RunAsUser                *int  `yaml:"runAsUser"`
	AllowPrivilegeEscalation *bool `yaml:"allowPrivilegeEscalation"`
	ReadOnlyRootFilesystem   *bool `yaml:"readOnlyRootFilesystem"`
	Capabilities             struct {
		Drop []string `yaml:"drop"`
	} `yaml:"capabilities"`
}

type container struct {
	Name  string   `yaml:"name"`
	Image string   `yaml:"image"`
	Args  []string `yaml:"args"`
	Env   []struct {
		Name string `yaml:"name"`
	} `yaml:"env"`
	Ports []struct {
		Name          string `yaml:"name"`
		ContainerPort int    `yaml:"containerPort"`
	} `yaml:"ports"`
	ReadinessProbe  probe           `yaml:"readinessProbe"`
	LivenessProbe   probe           `yaml:"livenessProbe"`
	SecurityContext securityContext `yaml:"securityContext"`
	Resources       struct {
		Requests map[string]string `yaml:"requests"`
		Limits   map[string]string `yaml:"limits"`
	} `yaml:"resources"`
	VolumeMounts []struct {
		Name      string `yaml:"name"`
		MountPath string `yaml:"mountPath"`
	} `yaml:"volumeMounts"`
}

type deployment struct {
	object `yaml:",inline"`
	Spec   struct {
		Selector struct {
			MatchLabels map[string]string `yaml:"matchLabels"`
		} `yaml:"selector"`
		Template struct {
			Metadata struct {
				Labels map[string]string `yaml:"labels"`
			} `yaml:"metadata"`
			Spec struct {
				TerminationGracePeriodSeconds int             `yaml:"terminationGracePeriodSeconds"`
				SecurityContext               securityContext `yaml:"securityContext"`
				Containers                    []container     `yaml:"containers"`
				Volumes                       []struct {
					Name   string `yaml:"name"`
					Secret *struct {
						SecretName string `yaml:"secretName"`
					} `yaml:"secret"`
				} `yaml:"volumes"`
			} `yaml:"spec"`
		} `yaml:"template"`
	} `yaml:"spec"`
}

type service struct {
	object `yaml:",inline"`
	Spec   struct {
		Selector map[string]string `yaml:"selector"`
		Ports    []struct {
			Port       int `yaml:"port"`
			TargetPort any `yaml:"targetPort"`
		} `yaml:"ports"`
	} `yaml:"spec"`
}

type autoscaler struct {
	object `yaml:",inline"`
	Spec   struct {
		ScaleTargetRef struct {
			APIVersion string `yaml:"apiVersion"`
			Kind       string `yaml:"kind"`
			Name       string `yaml:"name"`
		} `yaml:"scaleTargetRef"`
		MinReplicas int `yaml:"minReplicas"`
		MaxReplicas int `yaml:"maxReplicas"`
		Metrics     []struct {
			Type string `yaml:"type"`
			Pods *struct {
				Metric struct {
					Name string `yaml:"name"`
				} `yaml:"metric"`
			} `yaml:"pods"`
		} `yaml:"metrics"`
	} `yaml:"spec"`
}

type configMap struct {
	object `yaml:",inline"`
	Data   map[string]string `yaml:"data"`
}

type kustomization struct {
	object    `yaml:",inline"`
	Resources []string `yaml:"resources"`
}

// manifest is one YAML document of a file under deploy/.
type manifest struct {
	file string
	node yaml.Node
	obj  object
}

// decodeInto decodes the document into v.
func (m manifest) decodeInto(t *testing.T, v any) {
	t.Helper()
	if err := m.node.Decode(v); err != nil {
		t.Fatalf("%s: %s %s: %v", m.file, m.obj.Kind, m.obj.Metadata.Name, err)
	}
}

// loadManifests decodes every YAML document of every .yaml/.yml file under deploy/.
func loadManifests(t *testing.T) []manifest {
	t.Helper()
	var out []manifest
	err := filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || (filepath.Ext(path) != ".yaml" && filepath.Ext(path) != ".yml") {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		dec := yaml.NewDecoder(bytes.NewReader(data))
		for {
			m := manifest{file: path}
			if err := dec.Decode(&m.node); errors.Is(err, io.EOF) {
				break
			} else if err != nil {
				return fmt.Errorf("%s: %w", path, err)
			}
			if err := m.node.Decode(&m.obj); err != nil {
				return fmt.Errorf("%s: %w", path, err)
			}
			out = append(out, m)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// one returns the single manifest of kind, decoded into v.
func one(t *testing.T, all []manifest, kind string, v any) manifest {
	t.Helper()
	var found []manifest
	for _, m := range all {
		if m.obj.Kind == kind {
			found = append(found, m)
		}
	}
	if len(found) != 1 {
		t.Fatalf("want one %s under deploy/, found %d", kind, len(found))
	}
	found[0].decodeInto(t, v)
	return found[0]
}

// flagValue returns the value of --name in args ("" and false when absent).
func flagValue(args []string, name string) (string, bool) {
	for i, a := range args {
		if a == "--"+name && i+1 < len(args) {
			return args[i+1], true
		}
		if v, ok := strings.CutPrefix(a, "--"+name+"="); ok {
			return v, true
		}
	}
	return "", false
}

// parseBytes parses a Kubernetes memory quantity (Ki/Mi/Gi, or plain bytes) or a runcode size
// (KiB/MiB/GiB).
func parseBytes(t *testing.T, s string) int64 {
	t.Helper()
	for _, u := range []struct {
		suffix string
		shift  uint
	}{{"KiB", 10}, {"MiB", 20}, {"GiB", 30}, {"Ki", 10}, {"Mi", 20}, {"Gi", 30}} {
		if num, ok := strings.CutSuffix(s, u.suffix); ok {
			n, err := strconv.ParseInt(num, 10, 64)
			if err != nil {
				t.Fatalf("size %q: %v", s, err)
			}
			return n << u.shift
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		t.Fatalf("size %q: %v", s, err)
	}
	return n
}

// serverHeadroom is what the limits must leave the server process beside the workers: its own
// heap and the runs' sub-call data in flight.
const serverHeadroom = 256 << 20

// The grace periods of serve's drain (cmd/runcode: stuckGrace, httpShutdownTimeout) that a pod's
// terminationGracePeriodSeconds must cover beside --drain-timeout.
const drainOverhead = 2*time.Second + 5*time.Second

// Every manifest decodes, names its kind with the right apiVersion and has a name; the
// kustomization lists every manifest file and only existing ones.
func TestManifestsDecode(t *testing.T) {
	all := loadManifests(t)
	if len(all) == 0 {
		t.Fatal("no manifests under deploy/")
	}
	files := map[string]bool{}
	for _, m := range all {
		want, ok := wantAPIVersion[m.obj.Kind]
		switch {
		case !ok:
			t.Errorf("%s: unexpected kind %q", m.file, m.obj.Kind)
		case m.obj.APIVersion != want:
			t.Errorf("%s: %s has apiVersion %q, want %q", m.file, m.obj.Kind, m.obj.APIVersion, want)
		case m.obj.Kind != "Kustomization" && m.obj.Metadata.Name == "":
			t.Errorf("%s: %s has no metadata.name", m.file, m.obj.Kind)
		}
		if m.obj.Kind != "Kustomization" {
			files[filepath.ToSlash(m.file)] = true
		}
	}
	var k kustomization
	km := one(t, all, "Kustomization", &k)
	dir := filepath.Dir(km.file)
	listed := map[string]bool{}
	for _, r := range k.Resources {
		p := filepath.ToSlash(filepath.Join(dir, r))
		listed[p] = true
		if !files[p] {
			t.Errorf("%s lists %s, which is not a manifest under deploy/", km.file, r)
		}
	}
	for f := range files {
		if !listed[f] {
			t.Errorf("%s is not listed in %s", f, km.file)
		}
	}
}

// The Deployment serves stateless HTTP on its named port, probes /readyz and /healthz there,
// runs as non-root without privileges, reads the token from a Secret, gives a drain its whole
// --drain-timeout, limits memory to at least the process pool × --memory plus the server's
// headroom, and runs the image docs/serving.md builds. The Service and the autoscaler point at it.
func TestDeployment(t *testing.T) {
	all := loadManifests(t)
	var d deployment
	one(t, all, "Deployment", &d)
	spec := d.Spec.Template.Spec
	if len(spec.Containers) != 1 {
		t.Fatalf("want one container, got %d", len(spec.Containers))
	}
	c := spec.Containers[0]

	if want := readmeImage(t); c.Image != want {
		t.Errorf("image %q, want %q (the docker build tag of docs/serving.md)", c.Image, want)
	}
	if len(c.Args) == 0 || c.Args[0] != "serve" || !slices.Contains(c.Args, "--stateless") {
		t.Errorf("args %q: want serve … --stateless", c.Args)
	}
	addr, _ := flagValue(c.Args, "http")
	_, port, _ := strings.Cut(addr, ":")
	var portName string
	for _, p := range c.Ports {
		if strconv.Itoa(p.ContainerPort) == port {
			portName = p.Name
		}
	}
	if port == "" || portName == "" {
		t.Fatalf("--http %q is not a named container port (%+v)", addr, c.Ports)
	}
	for _, p := range []struct {
		name, path string
		probe      probe
	}{{"readinessProbe", "/readyz", c.ReadinessProbe}, {"livenessProbe", "/healthz", c.LivenessProbe}} {
		if p.probe.HTTPGet == nil || p.probe.HTTPGet.Path != p.path || (p.probe.HTTPGet.Port != portName && fmt.Sprint(p.probe.HTTPGet.Port) != port) {
			t.Errorf("%s %+v: want httpGet %s on port %s", p.name, p.probe.HTTPGet, p.path, portName)
		}
	}

	for _, sc := range []struct {
		where string
		sc    securityContext
	}{{"pod", spec.SecurityContext}, {"container", c.SecurityContext}} {
		if sc.sc.RunAsNonRoot == nil || !*sc.sc.RunAsNonRoot {
			t.Errorf("%s securityContext: runAsNonRoot is not true", sc.where)
		}
		if sc.sc.RunAsUser != nil && *sc.sc.RunAsUser == 0 {
			t.Errorf("%s securityContext: runAsUser 0", sc.where)
		}
	}
	if sc := c.SecurityContext; sc.AllowPrivilegeEscalation == nil || *sc.AllowPrivilegeEscalation || !slices.Contains(sc.Capabilities.Drop, "ALL") || sc.ReadOnlyRootFilesystem == nil || !*sc.ReadOnlyRootFilesystem {
		t.Errorf("container securityContext %+v: want allowPrivilegeEscalation false, capabilities dropped, a read-only root filesystem", sc)
	}

	// The token: a file on a Secret volume (or the environment variable from a Secret).
	if tokenFile, ok := flagValue(c.Args, "auth-token-file"); ok {
		secretVolumes := map[string]bool{}
		for _, v := range spec.Volumes {
			if v.Secret != nil && v.Secret.SecretName != "" {
				secretVolumes[v.Name] = true
			}
		}
		mounted := false
		for _, m := range c.VolumeMounts {
			if secretVolumes[m.Name] && strings.HasPrefix(tokenFile, strings.TrimSuffix(m.MountPath, "/")+"/") {
				mounted = true
			}
		}
		if !mounted {
			t.Errorf("--auth-token-file %s is not on a Secret volume", tokenFile)
		}
	} else if !slices.ContainsFunc(c.Env, func(e struct {
		Name string `yaml:"name"`
	}) bool {
		return e.Name == "RUNCODE_AUTH_TOKEN"
	}) {
		t.Error("no token: want --auth-token-file on a Secret volume or RUNCODE_AUTH_TOKEN from a Secret")
	}

	drain := 30 * time.Second
	if v, ok := flagValue(c.Args, "drain-timeout"); ok {
		var err error
		if drain, err = time.ParseDuration(v); err != nil {
			t.Fatalf("--drain-timeout %q: %v", v, err)
		}
	}
	if grace := time.Duration(spec.TerminationGracePeriodSeconds) * time.Second; grace < drain+drainOverhead {
		t.Errorf("terminationGracePeriodSeconds %s is less than --drain-timeout %s + %s: the kubelet would kill a draining pod", grace, drain, drainOverhead)
	}

	memory := int64(512 << 20) // serve's default --memory
	if v, ok := flagValue(c.Args, "memory"); ok {
		memory = parseBytes(t, v)
	}
	limit, ok := c.Resources.Limits["memory"]
	if !ok {
		t.Fatal("no memory limit")
	}
	// The pool grows to --workers, whose default depends on the node: the Deployment pins it.
	v, ok := flagValue(c.Args, "workers")
	if !ok {
		t.Fatal("no --workers: its default depends on the node, so the memory limit could not cover it")
	}
	workers, err := strconv.Atoi(v)
	if err != nil || workers < 1 {
		t.Fatalf("--workers %q: want a positive number", v)
	}
	if want := int64(workers)*memory + serverHeadroom; parseBytes(t, limit) < want {
		t.Errorf("memory limit %s is below %d workers × --memory %d + %d MiB for the server", limit, workers, memory, serverHeadroom>>20)
	}
	if _, ok := c.Resources.Requests["memory"]; !ok {
		t.Error("no memory request")
	}
	if _, ok := c.Resources.Requests["cpu"]; !ok {
		t.Error("no cpu request (the autoscaler's utilization is relative to it)")
	}

	podLabels := d.Spec.Template.Metadata.Labels
	for k, v := range d.Spec.Selector.MatchLabels {
		if podLabels[k] != v {
			t.Errorf("the selector %s=%s does not match the pod labels %v", k, v, podLabels)
		}
	}
	var s service
	one(t, all, "Service", &s)
	if len(s.Spec.Selector) == 0 {
		t.Error("the Service has no selector")
	}
	for k, v := range s.Spec.Selector {
		if podLabels[k] != v {
			t.Errorf("the Service selects %s=%s, not the Deployment's pods %v", k, v, podLabels)
		}
	}
	if len(s.Spec.Ports) != 1 || (s.Spec.Ports[0].TargetPort != portName && fmt.Sprint(s.Spec.Ports[0].TargetPort) != port) {
		t.Errorf("Service ports %+v: want one targeting %s", s.Spec.Ports, portName)
	}
	var h autoscaler
	one(t, all, "HorizontalPodAutoscaler", &h)
	if ref := h.Spec.ScaleTargetRef; ref.Kind != "Deployment" || ref.Name != d.Metadata.Name || ref.APIVersion != "apps/v1" {
		t.Errorf("the autoscaler scales %+v, not the Deployment %s", ref, d.Metadata.Name)
	}
	if h.Spec.MinReplicas < 2 || h.Spec.MaxReplicas < h.Spec.MinReplicas {
		t.Errorf("autoscaler replicas %d..%d: want at least 2, so that a drain leaves a replica serving", h.Spec.MinReplicas, h.Spec.MaxReplicas)
	}
}

// The autoscaler scales on runs in flight (runs awaiting tools use no CPU): a Pods metric that
// a real `runcode serve` exports on /metrics, and that the Prometheus Adapter rule serves.
func TestAutoscalerScalesOnAMetricServeExports(t *testing.T) {
	all := loadManifests(t)
	var h autoscaler
	one(t, all, "HorizontalPodAutoscaler", &h)
	var pods []string
	for _, m := range h.Spec.Metrics {
		if m.Type == "Pods" && m.Pods != nil {
			pods = append(pods, m.Pods.Metric.Name)
		}
	}
	if !slices.Contains(pods, "runcode_runs_in_flight") {
		t.Fatalf("the autoscaler's Pods metrics are %v: want runcode_runs_in_flight", pods)
	}
	var cm configMap
	one(t, all, "ConfigMap", &cm)
	exported := scrapeServeMetrics(t)
	for _, name := range pods {
		if !regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(name) + `[ {]`).MatchString(exported) {
			t.Errorf("the autoscaler scales on %s, which runcode serve's /metrics does not export:\n%s", name, exported)
		}
		if !strings.Contains(cm.Data["config.yaml"], "seriesQuery: '"+name+"{") {
			t.Errorf("the Prometheus Adapter rules do not serve %s", name)
		}
	}
}

// scrapeServeMetrics builds the CLI, starts `runcode serve --http` on a loopback port, and
// returns its /metrics exposition.
func scrapeServeMetrics(t *testing.T) string {
	t.Helper()
	exe := filepath.Join(t.TempDir(), "runcode")
	if out, err := exec.Command("go", "build", "-o", exe, "../cmd/runcode").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe, "serve", "--http", "127.0.0.1:0", "--workspace", t.TempDir())
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cancel(); _ = cmd.Wait() }()
	address := regexp.MustCompile(`at (http://127\.0\.0\.1:\d+)/mcp`)
	var base string
	for sc := bufio.NewScanner(stderr); base == "" && sc.Scan(); {
		if m := address.FindStringSubmatch(sc.Text()); m != nil {
			base = m[1]
		}
	}
	if base == "" {
		t.Fatal("serve did not report its address")
	}
	go func() { _, _ = io.Copy(io.Discard, stderr) }()
	resp, err := http.Get(base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("/metrics: %d %v", resp.StatusCode, err)
	}
	return string(body)
}

// readmeLines returns the lines of README.md and of the pages under docs/ (the container and
// Kubernetes sections are in docs/serving.md), trimmed.
func readmeLines(t *testing.T) []string {
	t.Helper()
	pages, err := filepath.Glob("../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, page := range append([]string{"../README.md"}, pages...) {
		data, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(bytes.NewReader(data))
		for sc.Scan() {
			lines = append(lines, strings.TrimSpace(sc.Text()))
		}
	}
	return lines
}

var dockerBuild = regexp.MustCompile(`^docker build -t (\S+) \.$`)

// readmeImage returns the tag of the `docker build -t IMAGE .` line in README.md or docs/*.md.
func readmeImage(t *testing.T) string {
	t.Helper()
	for _, line := range readmeLines(t) {
		if m := dockerBuild.FindStringSubmatch(line); m != nil {
			return m[1]
		}
	}
	t.Fatal("neither README.md nor docs/*.md has a line `docker build -t IMAGE .` (the container section of docs/serving.md)")
	return ""
}

// The Dockerfile builds the binary with exactly the command the README gives for a static
// binary, from the Go release go.mod names, and runs it as a non-root user.
func TestDockerfileMatchesREADME(t *testing.T) {
	data, err := os.ReadFile("../Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	var builds, froms []string
	var user string
	for line := range strings.Lines(string(data)) {
		line = strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(line, "RUN ") && strings.Contains(line, "go build"):
			builds = append(builds, strings.TrimSpace(strings.TrimPrefix(line, "RUN ")))
		case strings.HasPrefix(line, "FROM "):
			froms = append(froms, line)
		case strings.HasPrefix(line, "USER "):
			user = strings.TrimSpace(strings.TrimPrefix(line, "USER "))
		}
	}
	if len(builds) != 1 {
		t.Fatalf("want one RUN … go build line in the Dockerfile, got %q", builds)
	}
	if !strings.HasPrefix(builds[0], "CGO_ENABLED=0 ") {
		t.Errorf("the Dockerfile builds %q: want a static binary (CGO_ENABLED=0)", builds[0])
	}
	if !slices.Contains(readmeLines(t), builds[0]) {
		t.Errorf("neither README.md nor docs/*.md has the line\n\t%s\n(the Dockerfile's build command; the README's install section must give the same one)", builds[0])
	}
	readmeImage(t)

	if len(froms) < 2 {
		t.Fatalf("want a multi-stage build, got %q", froms)
	}
	mod, err := os.ReadFile("../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	goVersion := regexp.MustCompile(`(?m)^go (\d+\.\d+)`).FindSubmatch(mod)
	if goVersion == nil {
		t.Fatal("go.mod has no go directive")
	}
	if want := "FROM golang:" + string(goVersion[1]) + " "; !strings.HasPrefix(froms[0], want) {
		t.Errorf("the build stage is %q, want %q… (go.mod's go %s)", froms[0], want, goVersion[1])
	}
	uid, _, _ := strings.Cut(user, ":")
	if n, err := strconv.Atoi(uid); err != nil || n == 0 {
		t.Errorf("USER %q: want a numeric non-root user (Kubernetes checks runAsNonRoot by the number)", user)
	}
}
