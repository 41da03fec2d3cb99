package web

import (
	"fmt"
	"time"

	"github.com/eosbot/eos/bot/store"
)

// The drift chart: one bar per check over the last chartDays, placed by time. Height and
// colour both say the outcome (drifted tall and red, unknown half and grey, clean low and
// green), so the chart reads without colour; Summary is its text alternative.

const (
	chartW, chartH = 600, 80
	barW           = 4
)

type chart struct {
	W, H    int
	Bars    []bar
	Summary string
	From    time.Time
	To      time.Time
}

type bar struct {
	X, Y, W, H float64
	Class      string
	Title      string
}

func driftChart(hist []store.DriftRecord, from, to time.Time) chart {
	c := chart{W: chartW, H: chartH, From: from, To: to}
	span := to.Sub(from).Seconds()
	counts := map[string]int{}
	for _, rec := range hist {
		counts[rec.Status]++
		h := chartH * 0.25
		switch rec.Status {
		case "drifted":
			h = chartH
		case "clean":
		default:
			h = chartH * 0.5
		}
		x := (chartW - barW) * rec.At.Sub(from).Seconds() / span
		title := rec.At.UTC().Format("2006-01-02 15:04 UTC") + ": " + rec.Status
		if rec.Summary != "" {
			title += " — " + rec.Summary
		}
		c.Bars = append(c.Bars, bar{X: x, Y: chartH - h, W: barW, H: h, Class: "bar-" + classWord(rec.Status), Title: title})
	}
	c.Summary = fmt.Sprintf("%d checks in the last %d days: %d drifted, %d clean, %d unknown.",
		len(hist), chartDays, counts["drifted"], counts["clean"], len(hist)-counts["drifted"]-counts["clean"])
	return c
}

func classWord(status string) string {
	switch status {
	case "drifted", "clean":
		return status
	}
	return "unknown"
}
