package render

import (
	"math"
	"strings"
	"sync"

	"github.com/xuri/excelize/v2"
)

// chartNumbers formats chart values with their Excel number format codes
// ("0.0%", "#,##0", "m/d/yy"), as PowerPoint shows data labels and tick
// labels: through excelize, whose formatter is reached by giving a cell of
// a scratch workbook the value and a style with the code and reading the
// cell back. One workbook serves every render (guarded by mu); styles are
// cached by code.
var chartNumbers = &numberFormatter{}

type numberFormatter struct {
	mu     sync.Mutex
	f      *excelize.File
	styles map[string]int
}

// maxFormatCodes bounds the styles one scratch workbook collects; past it
// the workbook is replaced (a hostile deck could name endless codes).
const maxFormatCodes = 512

// formatNumber writes v with format code code; General (or no code) keeps
// ACE's compact tick style (fmtTick), and a code excelize refuses falls
// back to it too.
func formatNumber(v float64, code string) string {
	if code == "" || strings.EqualFold(code, "General") || math.IsNaN(v) || math.IsInf(v, 0) {
		return fmtTick(v)
	}
	s, ok := chartNumbers.format(v, code)
	if !ok {
		return fmtTick(v)
	}
	return s
}

func (nf *numberFormatter) format(v float64, code string) (string, bool) {
	nf.mu.Lock()
	defer nf.mu.Unlock()
	if nf.f == nil || len(nf.styles) >= maxFormatCodes {
		if nf.f != nil {
			nf.f.Close()
		}
		nf.f, nf.styles = excelize.NewFile(), map[string]int{}
	}
	const sheet, cell = "Sheet1", "A1"
	id, ok := nf.styles[code]
	if !ok {
		c := code
		var err error
		if id, err = nf.f.NewStyle(&excelize.Style{CustomNumFmt: &c}); err != nil {
			return "", false
		}
		nf.styles[code] = id
	}
	if nf.f.SetCellFloat(sheet, cell, v, -1, 64) != nil || nf.f.SetCellStyle(sheet, cell, cell, id) != nil {
		return "", false
	}
	s, err := nf.f.GetCellValue(sheet, cell)
	if err != nil || s == "" {
		return "", false
	}
	return s, true
}
