// Package deploy holds ACE's deployment files (Dockerfile, Kubernetes
// manifests, OTel collector config; docker-compose.yml at the repository
// root). Its test checks them for the structure and cross-references a
// cluster needs, since neither docker nor a cluster runs in CI.
package deploy

import (
	"bytes"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/acecanvas/ace/workflows"
)

type doc = map[string]any

func readDocs(t *testing.T, path string) []doc {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var out []doc
	for {
		var d doc
		err := dec.Decode(&d)
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if d != nil {
			out = append(out, d)
		}
	}
}

// get walks a path of map keys and list indexes ("spec.template.spec").
func get(d any, path string) any {
	for _, k := range strings.Split(path, ".") {
		switch v := d.(type) {
		case map[string]any:
			d = v[k]
		case []any:
			i := 0
			for _, c := range k {
				i = i*10 + int(c-'0')
			}
			if i >= len(v) {
				return nil
			}
			d = v[i]
		default:
			return nil
		}
	}
	return d
}

func str(d any, path string) string { s, _ := get(d, path).(string); return s }

func strs(v any) []string {
	var out []string
	list, _ := v.([]any)
	for _, x := range list {
		out = append(out, toString(x))
	}
	return out
}

func toString(x any) string {
	switch v := x.(type) {
	case string:
		return v
	case nil:
		return ""
	}
	b, _ := yaml.Marshal(x)
	return strings.TrimSpace(string(b))
}

// workerRole checks an `ace worker ...` command line against the CLI's
// flags and returns its queues and whether it dispatches.
func workerRole(t *testing.T, where string, args []string) (queues []string, dispatch bool) {
	t.Helper()
	if len(args) == 0 || args[0] != "worker" {
		t.Errorf("%s: command %v is not `ace worker ...`", where, args)
		return nil, false
	}
	src, err := os.ReadFile(filepath.Join("..", "cmd", "ace", "worker.go"))
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "--") {
			t.Errorf("%s: stray argument %q", where, a)
			continue
		}
		name := strings.TrimPrefix(a, "--")
		if !bytes.Contains(src, []byte(`"`+name+`"`)) {
			t.Errorf("%s: ace worker has no flag --%s", where, name)
		}
		switch name {
		case "dispatch":
			dispatch = true
		case "queues":
			i++
			if i == len(args) {
				t.Errorf("%s: --queues without a value", where)
				break
			}
			for _, q := range strings.Split(args[i], ",") {
				if q == "all" {
					queues = append(queues, workflows.AllRoles...)
					continue
				}
				if _, ok := workflows.Roles[q]; !ok {
					t.Errorf("%s: unknown queue %q", where, q)
				}
				queues = append(queues, q)
			}
		case "render-pool":
			i++
		}
	}
	return queues, dispatch
}

// checkRoles: together the roles serve every queue, and exactly one role
// runs the dispatcher.
func checkRoles(t *testing.T, where string, served map[string]bool, dispatchers int) {
	t.Helper()
	for _, q := range workflows.AllRoles {
		if !served[q] {
			t.Errorf("%s: no worker serves the %s queue", where, q)
		}
	}
	if dispatchers != 1 {
		t.Errorf("%s: %d roles run the dispatcher, want exactly 1", where, dispatchers)
	}
}

func TestKubernetesManifests(t *testing.T) {
	kust := readDocs(t, filepath.Join("k8s", "kustomization.yaml"))
	resources := strs(get(kust[0], "resources"))
	files, _ := filepath.Glob(filepath.Join("k8s", "*.yaml"))
	for _, f := range files {
		if b := filepath.Base(f); b != "kustomization.yaml" && !slices.Contains(resources, b) {
			t.Errorf("%s is not listed in kustomization.yaml", b)
		}
	}
	byKind := map[string]map[string]doc{}
	for _, r := range resources {
		for _, d := range readDocs(t, filepath.Join("k8s", r)) {
			kind, name := str(d, "kind"), str(d, "metadata.name")
			if str(d, "apiVersion") == "" || kind == "" || name == "" {
				t.Errorf("%s: a document lacks apiVersion, kind or metadata.name", r)
				continue
			}
			if byKind[kind] == nil {
				byKind[kind] = map[string]doc{}
			}
			byKind[kind][name] = d
		}
	}
	cm := byKind["ConfigMap"]["ace-config"]
	for _, k := range []string{"ACE_TEMPORAL_ADDRESS", "ACE_NATS_URL", "ACE_REDIS_URL", "OTEL_EXPORTER_OTLP_ENDPOINT"} {
		if str(cm, "data."+k) == "" {
			t.Errorf("ConfigMap ace-config lacks %s", k)
		}
	}
	if str(byKind["Secret"]["ace-model"], "stringData.OPENAI_API_KEY") == "" {
		t.Error("Secret ace-model lacks OPENAI_API_KEY")
	}
	cmEnv, _ := get(cm, "data").(map[string]any)
	checkSecured(t, "ConfigMap ace-config", cmEnv)
	authFiles, _ := get(byKind["Secret"]["ace-cluster-auth"], "stringData").(map[string]any)
	served, dispatchers := map[string]bool{}, 0
	if len(byKind["Deployment"]) < len(workflows.AllRoles) {
		t.Errorf("%d Deployments, want one per worker role", len(byKind["Deployment"]))
	}
	for name, d := range byKind["Deployment"] {
		labels, _ := get(d, "spec.template.metadata.labels").(map[string]any)
		for k, v := range get(d, "spec.selector.matchLabels").(map[string]any) {
			if labels[k] != v {
				t.Errorf("Deployment %s: selector %s=%v does not match the pod labels", name, k, v)
			}
		}
		c := get(d, "spec.template.spec.containers.0")
		if !strings.Contains(str(c, "image"), "ace") {
			t.Errorf("Deployment %s: image %q is not the ace image", name, str(c, "image"))
		}
		qs, disp := workerRole(t, "Deployment "+name, strs(get(c, "args")))
		for _, q := range qs {
			served[q] = true
		}
		if disp {
			dispatchers++
		}
		for _, ref := range get(c, "envFrom").([]any) {
			if n := str(ref, "configMapRef.name"); n != "" && byKind["ConfigMap"][n] == nil {
				t.Errorf("Deployment %s: ConfigMap %s does not exist", name, n)
			}
			if n := str(ref, "secretRef.name"); n != "" && byKind["Secret"][n] == nil {
				t.Errorf("Deployment %s: Secret %s does not exist", name, n)
			}
		}
		mounted := map[string]string{} // mount path -> Secret
		secrets := map[string]string{} // volume -> Secret
		for _, v := range asList(get(d, "spec.template.spec.volumes")) {
			if n := str(v, "secret.secretName"); n != "" {
				if byKind["Secret"][n] == nil {
					t.Errorf("Deployment %s: volume %s mounts Secret %s, which does not exist", name, str(v, "name"), n)
				}
				secrets[str(v, "name")] = n
			}
		}
		for _, m := range asList(get(c, "volumeMounts")) {
			if n, ok := secrets[str(m, "name")]; ok {
				mounted[str(m, "mountPath")] = n
			}
		}
		for k, v := range cmEnv {
			path := toString(v)
			if !strings.HasSuffix(k, "_FILE") && !strings.Contains(k, "_TLS_") || strings.HasSuffix(k, "_SERVER_NAME") {
				continue
			}
			if mounted[filepath.Dir(path)] != "ace-cluster-auth" {
				t.Errorf("Deployment %s: %s=%s is not in a mounted Secret ace-cluster-auth", name, k, path)
			} else if authFiles[filepath.Base(path)] == nil {
				t.Errorf("Deployment %s: %s=%s, but Secret ace-cluster-auth has no key %s", name, k, path, filepath.Base(path))
			}
		}
		if g, _ := get(d, "spec.template.spec.terminationGracePeriodSeconds").(int); g <= 30 {
			t.Errorf("Deployment %s: terminationGracePeriodSeconds %d leaves no time to drain (workers wait 30 s)", name, g)
		}
		if slices.Contains(qs, "render") && !strings.Contains(toString(get(c, "volumeMounts")), "/dev/shm") {
			t.Errorf("Deployment %s renders but mounts no /dev/shm (Chromium crashes on the 64 MB default)", name)
		}
	}
	checkRoles(t, "k8s", served, dispatchers)
	for name, h := range byKind["HorizontalPodAutoscaler"] {
		target := str(h, "spec.scaleTargetRef.name")
		if str(h, "spec.scaleTargetRef.kind") != "Deployment" || byKind["Deployment"][target] == nil {
			t.Errorf("HPA %s scales %q, which is not a Deployment here", name, target)
		}
		lo, _ := get(h, "spec.minReplicas").(int)
		hi, _ := get(h, "spec.maxReplicas").(int)
		if lo < 1 || hi < lo {
			t.Errorf("HPA %s: replicas %d..%d", name, lo, hi)
		}
	}
}

func TestComposeFile(t *testing.T) {
	compose := readDocs(t, filepath.Join("..", "docker-compose.yml"))[0]
	services, _ := get(compose, "services").(map[string]any)
	for _, need := range []string{"temporal", "temporal-ui", "postgresql", "nats", "redis", "jaeger", "otel-collector"} {
		if services[need] == nil {
			t.Errorf("docker-compose.yml lacks the %s service", need)
		}
	}
	if !slices.Contains(strs(get(services, "nats.command")), "-js") {
		t.Error("nats runs without JetStream (-js)")
	}
	// The servers read the config files gen-dev-certs.sh writes (auth, TLS).
	for svc, conf := range map[string]string{"nats": "/etc/ace/secrets/nats.conf", "redis": "/etc/ace/secrets/redis.conf"} {
		if !slices.Contains(strs(get(services, svc+".command")), conf) {
			t.Errorf("%s does not run with %s (its password and TLS)", svc, conf)
		}
	}
	if toString(get(services, "temporal.environment.TEMPORAL_TLS_REQUIRE_CLIENT_AUTH")) != "true" {
		t.Error("temporal does not require client certificates (TEMPORAL_TLS_REQUIRE_CLIENT_AUTH)")
	}
	checkDevCerts(t)
	served, dispatchers := map[string]bool{}, 0
	for name, s := range services {
		for _, dep := range dependsOn(get(s, "depends_on")) {
			if services[dep] == nil {
				t.Errorf("service %s depends on unknown service %s", name, dep)
			}
		}
		if !strings.HasPrefix(name, "ace-") {
			continue
		}
		if df := str(s, "build.dockerfile"); df == "" {
			t.Errorf("service %s has no build.dockerfile", name)
		} else if _, err := os.Stat(filepath.Join("..", df)); err != nil {
			t.Errorf("service %s: %v", name, err)
		}
		for _, f := range strs(get(s, "env_file")) {
			if _, err := os.Stat(filepath.Join("..", f)); err != nil {
				t.Errorf("service %s: env_file %v", name, err)
			}
		}
		qs, disp := workerRole(t, "service "+name, strs(get(s, "command")))
		for _, q := range qs {
			served[q] = true
		}
		if disp {
			dispatchers++
		}
		env, _ := get(s, "environment").(map[string]any)
		checkSecured(t, "service "+name, env)
		for k, v := range env {
			path := toString(v)
			if (strings.HasSuffix(k, "_FILE") || strings.Contains(k, "_TLS_")) && !strings.HasSuffix(k, "_SERVER_NAME") &&
				!strings.HasPrefix(path, "/etc/ace/secrets/") {
				t.Errorf("service %s: %s=%s is not under /etc/ace/secrets (what gen-dev-certs.sh writes)", name, k, path)
			}
		}
		if !slices.Contains(strs(get(s, "volumes")), "./deploy/compose:/etc/ace:ro") {
			t.Errorf("service %s does not mount ./deploy/compose at /etc/ace", name)
		}
		for _, k := range []string{"ACE_TEMPORAL_ADDRESS", "ACE_NATS_URL", "ACE_REDIS_URL", "OTEL_EXPORTER_OTLP_ENDPOINT"} {
			v := toString(env[k])
			if v == "" {
				t.Errorf("service %s: %s is empty (it would start an embedded server)", name, k)
				continue
			}
			host := v
			if u, err := url.Parse(v); err == nil && u.Host != "" {
				host = u.Hostname()
			} else {
				host = strings.Split(v, ":")[0]
			}
			if services[host] == nil {
				t.Errorf("service %s: %s points at %q, which is no service", name, k, host)
			}
		}
		for _, v := range strs(get(s, "volumes")) {
			if src := strings.Split(v, ":")[0]; strings.HasPrefix(src, "./") {
				if _, err := os.Stat(filepath.Join("..", src)); err != nil {
					t.Errorf("service %s mounts %s: %v", name, src, err)
				}
			}
		}
	}
	checkRoles(t, "docker-compose.yml", served, dispatchers)

	col := readDocs(t, "otel-collector.yaml")[0]
	for _, p := range []string{"service.pipelines.traces.exporters", "service.pipelines.traces.receivers"} {
		for _, ref := range strs(get(col, p)) {
			section := "exporters"
			if strings.HasSuffix(p, "receivers") {
				section = "receivers"
			}
			if get(col, section+"."+ref) == nil {
				t.Errorf("otel-collector.yaml: pipeline uses undefined %s %q", section, ref)
			}
		}
	}
	host := strings.Split(str(col, "exporters.otlp/jaeger.endpoint"), ":")[0]
	if services[host] == nil {
		t.Errorf("otel-collector.yaml exports to %q, which is no compose service", host)
	}
}

// checkDevCerts runs gen-dev-certs.sh on a copy and checks it writes every
// file docker-compose.yml names under /etc/ace/secrets, and that the
// client and server certificates chain to its CA.
func checkDevCerts(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("openssl"); err != nil {
		t.Log("openssl not installed: gen-dev-certs.sh not run")
		return
	}
	script, err := os.ReadFile(filepath.Join("compose", "gen-dev-certs.sh"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "gen-dev-certs.sh"), script, 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("sh", filepath.Join(dir, "gen-dev-certs.sh")).CombinedOutput(); err != nil {
		t.Fatalf("gen-dev-certs.sh: %v\n%s", err, out)
	}
	compose, err := os.ReadFile(filepath.Join("..", "docker-compose.yml"))
	if err != nil {
		t.Fatal(err)
	}
	named := regexp.MustCompile(`/etc/ace/secrets/([A-Za-z0-9.-]+)`).FindAllStringSubmatch(string(compose), -1)
	if len(named) == 0 {
		t.Fatal("docker-compose.yml names no file under /etc/ace/secrets")
	}
	for _, m := range named {
		if _, err := os.Stat(filepath.Join(dir, "secrets", m[1])); err != nil {
			t.Errorf("docker-compose.yml uses /etc/ace/secrets/%s, which gen-dev-certs.sh did not write", m[1])
		}
	}
	pool := x509.NewCertPool()
	caPEM, _ := os.ReadFile(filepath.Join(dir, "secrets", "ca.pem"))
	if !pool.AppendCertsFromPEM(caPEM) {
		t.Fatal("gen-dev-certs.sh: ca.pem holds no certificate")
	}
	for name, usage := range map[string]x509.ExtKeyUsage{"server.pem": x509.ExtKeyUsageServerAuth, "client.pem": x509.ExtKeyUsageClientAuth} {
		data, _ := os.ReadFile(filepath.Join(dir, "secrets", name))
		block, _ := pem.Decode(data)
		if block == nil {
			t.Errorf("gen-dev-certs.sh: %s holds no PEM block", name)
			continue
		}
		cert, err := x509.ParseCertificate(block.Bytes)
		if err != nil {
			t.Errorf("gen-dev-certs.sh: %s: %v", name, err)
			continue
		}
		opts := x509.VerifyOptions{Roots: pool, KeyUsages: []x509.ExtKeyUsage{usage}}
		if usage == x509.ExtKeyUsageServerAuth {
			opts.DNSName = "nats" // and redis, temporal: the compose services' names
		}
		if _, err := cert.Verify(opts); err != nil {
			t.Errorf("gen-dev-certs.sh: %s does not verify against ca.pem: %v", name, err)
		}
	}
}

// checkSecured fails unless env reaches NATS, Redis and Temporal with
// credentials over TLS.
func checkSecured(t *testing.T, where string, env map[string]any) {
	t.Helper()
	if u := toString(env["ACE_NATS_URL"]); !strings.HasPrefix(u, "tls://") {
		t.Errorf("%s: ACE_NATS_URL %s is not tls://", where, u)
	}
	if u := toString(env["ACE_REDIS_URL"]); !strings.HasPrefix(u, "rediss://") {
		t.Errorf("%s: ACE_REDIS_URL %s is not rediss://", where, u)
	}
	for _, k := range []string{"ACE_NATS_USER", "ACE_NATS_PASSWORD_FILE", "ACE_NATS_TLS_CA", "ACE_REDIS_PASSWORD_FILE",
		"ACE_REDIS_TLS_CA", "ACE_TEMPORAL_TLS_CA", "ACE_TEMPORAL_TLS_CERT", "ACE_TEMPORAL_TLS_KEY"} {
		if toString(env[k]) == "" {
			t.Errorf("%s: %s is not set (the cluster would run without authentication or TLS)", where, k)
		}
	}
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

func dependsOn(v any) []string {
	switch d := v.(type) {
	case []any:
		return strs(d)
	case map[string]any:
		var out []string
		for k := range d {
			out = append(out, k)
		}
		return out
	}
	return nil
}

func TestDockerfile(t *testing.T) {
	data, err := os.ReadFile("Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	src := string(data)
	froms := regexp.MustCompile(`(?m)^FROM\s+(\S+)`).FindAllStringSubmatch(src, -1)
	if len(froms) < 2 || !strings.HasPrefix(froms[0][1], "golang:1.26") {
		t.Errorf("want a golang:1.26 build stage and a runtime stage, got %v", froms)
	}
	// Chromium and every font package scripts/setup installs: text measured
	// in the image must lay out as on a developer machine (issue 20).
	setup, err := os.ReadFile("../scripts/setup")
	if err != nil {
		t.Fatal(err)
	}
	pkgs := regexp.MustCompile(`\bfonts-[a-z0-9-]+`).FindAllString(string(setup), -1)
	if len(pkgs) < 5 {
		t.Fatalf("scripts/setup names %d font packages (%v): has its list moved?", len(pkgs), pkgs)
	}
	for _, pkg := range append([]string{"chromium", "tini"}, pkgs...) {
		if !regexp.MustCompile(`(?m)apt-get install[^\n]*(\\\n[^\n]*)*\b` + regexp.QuoteMeta(pkg) + `\b`).MatchString(src) {
			t.Errorf("runtime image does not install %s", pkg)
		}
	}
	if !strings.Contains(src, "go build") || !strings.Contains(src, "./cmd/ace") {
		t.Error("the build stage does not build ./cmd/ace")
	}
	// An init as PID 1 (tini) in front of ace: the Chromium helpers
	// orphaned when a browser ends are reparented to PID 1, and ace
	// would leave them zombies (issue 22).
	if !regexp.MustCompile(`(?m)^ENTRYPOINT \["/usr/bin/tini", "--", "[^"]*/ace"\]`).MatchString(src) {
		t.Error(`ENTRYPOINT is not ["/usr/bin/tini", "--", ".../ace"]: ace under tini, which reaps orphaned Chromium helpers`)
	}
	if m := regexp.MustCompile(`(?m)^CMD \[(.*)\]`).FindStringSubmatch(src); m == nil {
		t.Error("no default CMD")
	} else {
		var args []string
		for _, a := range strings.Split(m[1], ",") {
			args = append(args, strings.Trim(strings.TrimSpace(a), `"`))
		}
		workerRole(t, "Dockerfile CMD", args)
	}
	for _, m := range regexp.MustCompile(`(?m)^COPY (\S+) `).FindAllStringSubmatch(src, -1) {
		if strings.HasPrefix(m[1], "--") || m[1] == "." {
			continue
		}
		if _, err := os.Stat(filepath.Join("..", m[1])); err != nil {
			t.Errorf("Dockerfile copies %s: %v", m[1], err)
		}
	}
}

// TestREADMEDocumentsEverySettingTheDeployFilesSet reads every ACE_*,
// OPENAI_* and OTEL_* name the deployment files set or pass on (the
// Kubernetes manifests, docker-compose.yml, ace.env, the Dockerfile) and
// finds each in the README, whose settings table is where an operator
// looks them up (issue 20: ACE_TEMPORAL_NAMESPACE was set in k8s and
// documented nowhere).
func TestREADMEDocumentsEverySettingTheDeployFilesSet(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob("k8s/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("k8s manifests: %v", err)
	}
	files = append(files, "../docker-compose.yml", "ace.env", "Dockerfile")
	setting := regexp.MustCompile(`\b(?:ACE|OPENAI|OTEL)_[A-Z0-9_]+\b`)
	seen := map[string]bool{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range setting.FindAllString(string(b), -1) {
			if seen[name] {
				continue
			}
			seen[name] = true
			if !regexp.MustCompile(`\b` + name + `\b`).Match(readme) {
				t.Errorf("%s sets %s, which the README does not mention", f, name)
			}
		}
	}
	if len(seen) < 10 {
		t.Fatalf("found only %d settings in the deploy files: %v", len(seen), seen)
	}
}
