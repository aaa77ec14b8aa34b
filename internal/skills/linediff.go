package skills

import (
	"fmt"
	"strings"
)

// DiffContext is how many unchanged lines LineDiff shows around a change.
const DiffContext = 3

// maxDiffCells bounds the LCS table (lines of a × lines of b after the
// common prefix and suffix); beyond it the middle is shown as wholly
// replaced. SKILL.md files are a few hundred lines at most.
const maxDiffCells = 4_000_000

// lineOp is one line of an edit script: ' ' kept, '-' only in a, '+'
// only in b.
type lineOp struct {
	kind byte
	line string
}

// splitLines splits text into lines without their "\n"; a final newline
// ends the last line rather than starting an empty one.
func splitLines(text string) []string {
	if text == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(text, "\n"), "\n")
}

// diffLines is a shortest edit script from a to b by longest common
// subsequence, deletions before insertions within a change.
func diffLines(a, b []string) []lineOp {
	var ops []lineOp
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		ops = append(ops, lineOp{' ', a[pre]})
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	ma, mb := a[pre:len(a)-suf], b[pre:len(b)-suf]
	n, m := len(ma), len(mb)
	if n*m > maxDiffCells {
		for _, l := range ma {
			ops = append(ops, lineOp{'-', l})
		}
		for _, l := range mb {
			ops = append(ops, lineOp{'+', l})
		}
	} else {
		// lcs[i][j] is the LCS length of ma[i:] and mb[j:].
		lcs := make([][]int32, n+1)
		for i := range lcs {
			lcs[i] = make([]int32, m+1)
		}
		for i := n - 1; i >= 0; i-- {
			for j := m - 1; j >= 0; j-- {
				if ma[i] == mb[j] {
					lcs[i][j] = lcs[i+1][j+1] + 1
				} else {
					lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
				}
			}
		}
		i, j := 0, 0
		for i < n || j < m {
			switch {
			case i < n && j < m && ma[i] == mb[j]:
				ops = append(ops, lineOp{' ', ma[i]})
				i++
				j++
			case j == m || (i < n && lcs[i+1][j] >= lcs[i][j+1]):
				ops = append(ops, lineOp{'-', ma[i]})
				i++
			default:
				ops = append(ops, lineOp{'+', mb[j]})
				j++
			}
		}
	}
	for _, l := range a[len(a)-suf:] {
		ops = append(ops, lineOp{' ', l})
	}
	return ops
}

// LineDiff returns the unified diff (as diff -u writes it, DiffContext
// lines of context) turning text a, labelled from, into text b, labelled
// to; "" when the texts have the same lines.
func LineDiff(a, b, from, to string) string {
	ops := diffLines(splitLines(a), splitLines(b))
	var out strings.Builder
	// aLine[k], bLine[k]: lines of a and b before ops[k].
	aLine := make([]int, len(ops)+1)
	bLine := make([]int, len(ops)+1)
	for k, op := range ops {
		aLine[k+1], bLine[k+1] = aLine[k], bLine[k]
		if op.kind != '+' {
			aLine[k+1]++
		}
		if op.kind != '-' {
			bLine[k+1]++
		}
	}
	for k := 0; k < len(ops); {
		if ops[k].kind == ' ' {
			k++
			continue
		}
		// A hunk: from DiffContext lines before this change to
		// DiffContext after the last change no more than 2*DiffContext
		// unchanged lines from the previous one.
		start := max(0, k-DiffContext)
		end := k
		for end < len(ops) {
			if ops[end].kind != ' ' {
				end++
				continue
			}
			run := end
			for run < len(ops) && ops[run].kind == ' ' {
				run++
			}
			if run == len(ops) || run-end > 2*DiffContext {
				end = min(end+DiffContext, len(ops))
				break
			}
			end = run
		}
		if out.Len() == 0 {
			fmt.Fprintf(&out, "--- %s\n+++ %s\n", from, to)
		}
		fmt.Fprintf(&out, "@@ -%s +%s @@\n", hunkRange(aLine[start], aLine[end]-aLine[start]),
			hunkRange(bLine[start], bLine[end]-bLine[start]))
		for _, op := range ops[start:end] {
			out.WriteByte(op.kind)
			out.WriteString(op.line)
			out.WriteByte('\n')
		}
		k = end
	}
	return out.String()
}

// hunkRange is a unified-diff range: "l,n" with l 1-based, or for an
// empty side the line before it ("l,0").
func hunkRange(before, n int) string {
	switch n {
	case 0:
		return fmt.Sprintf("%d,0", before)
	case 1:
		return fmt.Sprintf("%d", before+1)
	}
	return fmt.Sprintf("%d,%d", before+1, n)
}
