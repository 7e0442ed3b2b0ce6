// Package logging sets up the slog logger of megaco serve and megaco
// proxy from their --log-level and --log-format, one way for both.
package logging

import (
	"fmt"
	"io"
	"log/slog"
)

// New is a logger writing to w at level (debug, info, warn or error, as
// slog.Level reads it), in format "text" or "json".
func New(level, format string, w io.Writer) (*slog.Logger, error) {
	var l slog.Level
	if err := l.UnmarshalText([]byte(level)); err != nil {
		return nil, fmt.Errorf("bad log level %q", level)
	}
	opts := &slog.HandlerOptions{Level: l}
	switch format {
	case "text":
		return slog.New(slog.NewTextHandler(w, opts)), nil
	case "json":
		return slog.New(slog.NewJSONHandler(w, opts)), nil
	}
	return nil, fmt.Errorf("bad log format %q (text or json)", format)
}
