package skills

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// applyUnified applies a unified diff made by LineDiff to a, checking
// every context and removed line against a; it returns the new text.
func applyUnified(t *testing.T, a, diff string) string {
	t.Helper()
	src := splitLines(a)
	var out []string
	next := 0 // index into src
	lines := splitLines(diff)
	for i := 2; i < len(lines); i++ {
		h := lines[i]
		if !strings.HasPrefix(h, "@@ -") {
			t.Fatalf("line %d: want a hunk header, got %q", i, h)
		}
		aRange := strings.Fields(h)[1][1:]
		startS, _, _ := strings.Cut(aRange, ",")
		start, err := strconv.Atoi(startS)
		if err != nil {
			t.Fatalf("hunk header %q", h)
		}
		if strings.HasSuffix(aRange, ",0") {
			start++ // an empty side names the line before
		}
		for next < start-1 {
			out = append(out, src[next])
			next++
		}
		for i+1 < len(lines) && !strings.HasPrefix(lines[i+1], "@@ ") {
			i++
			l := lines[i]
			switch l[0] {
			case ' ', '-':
				if next >= len(src) || src[next] != l[1:] {
					t.Fatalf("diff line %q does not match a's line %d", l, next+1)
				}
				if l[0] == ' ' {
					out = append(out, l[1:])
				}
				next++
			case '+':
				out = append(out, l[1:])
			default:
				t.Fatalf("bad diff line %q", l)
			}
		}
	}
	out = append(out, src[next:]...)
	if len(out) == 0 {
		return ""
	}
	return strings.Join(out, "\n") + "\n"
}

func TestLineDiffIsDiffU(t *testing.T) {
	var a, b strings.Builder
	for i := 1; i <= 20; i++ {
		fmt.Fprintf(&a, "line %d\n", i)
		switch i {
		case 2:
			b.WriteString("line 2 changed\n")
		case 15:
		default:
			fmt.Fprintf(&b, "line %d\n", i)
		}
		if i == 16 {
			b.WriteString("inserted\n")
		}
	}
	// What GNU diff -u prints for these texts (less its timestamps).
	want := `--- a
+++ b
@@ -1,5 +1,5 @@
 line 1
-line 2
+line 2 changed
 line 3
 line 4
 line 5
@@ -12,8 +12,8 @@
 line 12
 line 13
 line 14
-line 15
 line 16
+inserted
 line 17
 line 18
 line 19
`
	if got := LineDiff(a.String(), b.String(), "a", "b"); got != want {
		t.Fatalf("got:\n%s\nwant:\n%s", got, want)
	}
	if got := LineDiff(a.String(), a.String(), "a", "b"); got != "" {
		t.Fatalf("equal texts: %q", got)
	}
	if got := LineDiff("", "x\n", "a", "b"); got != "--- a\n+++ b\n@@ -0,0 +1 @@\n+x\n" {
		t.Fatalf("from empty: %q", got)
	}
}

func FuzzLineDiff(f *testing.F) {
	f.Add("a\nb\nc\n", "a\nc\nd\n")
	f.Add("", "x\n")
	f.Add("1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n", "1\n2\nX\n4\n5\n6\n7\n8\n9\nY\n11\n")
	f.Add(sample, strings.Replace(sample, "## Tips\n", "## Tips\nnew tip\n", 1))
	f.Fuzz(func(t *testing.T, a, b string) {
		// Whole lines only: LineDiff compares lines ending in "\n".
		if a != "" && !strings.HasSuffix(a, "\n") {
			a += "\n"
		}
		if b != "" && !strings.HasSuffix(b, "\n") {
			b += "\n"
		}
		d := LineDiff(a, b, "a", "b")
		if (d == "") != (a == b) {
			t.Fatalf("diff %q for a=%q b=%q", d, a, b)
		}
		if d != "" {
			if got := applyUnified(t, a, d); got != b {
				t.Fatalf("applying the diff gives %q, want %q\n%s", got, b, d)
			}
		}
	})
}
