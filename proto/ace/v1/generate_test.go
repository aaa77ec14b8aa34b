package acev1_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestGeneratedCodeIsCurrent regenerates the Go code into a temporary
// directory with protoc and protoc-gen-go and compares it with the committed
// files, so an edited .proto without `make proto` fails CI.
func TestGeneratedCodeIsCurrent(t *testing.T) {
	protoc, err := exec.LookPath("protoc")
	if err != nil {
		t.Skip("protoc not installed (Debian protobuf-compiler; `make setup` installs it)")
	}
	gopath, _ := exec.Command("go", "env", "GOPATH").Output()
	plugin := filepath.Join(string(bytes.TrimSpace(gopath)), "bin", "protoc-gen-go")
	if _, err := os.Stat(plugin); err != nil {
		t.Skip("protoc-gen-go not installed (`make proto` installs it)")
	}
	out := t.TempDir()
	cmd := exec.Command(protoc, "-I", "../..", "--plugin=protoc-gen-go="+plugin,
		"--go_out="+out, "--go_opt=paths=source_relative", "../../ace/v1/edit.proto", "../../ace/v1/batch.proto")
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("protoc: %v\n%s", err, msg)
	}
	for _, name := range []string{"edit.pb.go", "batch.pb.go"} {
		want, err := os.ReadFile(filepath.Join(out, "ace", "v1", name))
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is stale: run `make proto` and commit the result", name)
		}
	}
}
