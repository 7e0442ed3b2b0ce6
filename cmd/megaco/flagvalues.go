package main

import (
	"errors"
	"fmt"
	"math"
	"net"
	"strconv"
	"strings"
	"time"
)

// The flag types. Each binds a flag to the field it fills and checks a
// value when it is given, so that every later step has a valid one.

// durationValue is a duration with a unit: 10s, 500ms, 1m30s.
type durationValue struct {
	p   *time.Duration
	min time.Duration
}

// durationOf is a duration flag of min or more.
func durationOf(p *time.Duration, min time.Duration) *durationValue {
	return &durationValue{p, min}
}

func (v *durationValue) Type() string   { return "duration" }
func (v *durationValue) String() string { return formatDuration(*v.p) }

func (v *durationValue) Set(s string) error {
	d, err := parseDuration(s)
	if err != nil {
		return err
	}
	if d < v.min {
		return fmt.Errorf("want %s or more", formatDuration(v.min))
	}
	*v.p = d
	return nil
}

// parseDuration reads a duration as time.ParseDuration does; a number
// without a unit is refused (is 10 seconds or milliseconds?) except 0.
func parseDuration(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	if _, err := strconv.ParseFloat(s, 64); err == nil && s != "0" {
		return 0, fmt.Errorf("a duration needs a unit, such as %ss or %sms", s, s)
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, errors.New("want a duration such as 10s, 250ms or 1m30s")
	}
	return d, nil
}

// formatDuration is d as time.Duration writes it, less zero minutes and
// seconds: 30m rather than 30m0s.
func formatDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// The size units: KiB, MiB... are powers of 1024, kB, MB... of 1000;
// K, M and G are taken as KiB, MiB and GiB (the memory limit took them).
var sizeUnits = []struct {
	name string
	mult int64
}{
	{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"TiB", 1 << 40},
	{"kB", 1e3}, {"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"TB", 1e12},
	{"K", 1 << 10}, {"M", 1 << 20}, {"G", 1 << 30}, {"B", 1},
}

var errSize = errors.New("want a size: bytes, or a number with KiB, MiB, GiB, kB, MB or GB (64KiB, 1MiB, 1GB)")

// parseSize reads a number of bytes: 65536, 64KiB, 1MiB, 1GB.
func parseSize(s string) (int64, error) {
	num, mult := strings.TrimSpace(s), int64(1)
	for _, u := range sizeUnits {
		if n, ok := strings.CutSuffix(num, u.name); ok {
			num, mult = strings.TrimSpace(n), u.mult
			break
		}
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n < 0 || n > math.MaxInt64/mult {
		return 0, errSize
	}
	return n * mult, nil
}

// formatSize writes n in the largest binary unit that divides it.
func formatSize(n int64) string {
	for _, u := range []struct {
		name string
		mult int64
	}{{"TiB", 1 << 40}, {"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if n != 0 && n%u.mult == 0 {
			return strconv.FormatInt(n/u.mult, 10) + u.name
		}
	}
	return strconv.FormatInt(n, 10)
}

// integer is a field an intValue fills.
type integer interface {
	~int | ~int32 | ~int64 | ~uint32
}

// intValue is a count (a plain integer) or a size (with units), within
// bounds. zero, if not "", is a name for 0, such as auto.
type intValue[T integer] struct {
	p        *T
	min, max int64
	size     bool
	zero     string
}

// countOf is an integer flag from min to max.
func countOf[T integer](p *T, lo, hi int64) *intValue[T] {
	return &intValue[T]{p: p, min: lo, max: min(hi, maxOf[T]())}
}

// sizeOf is a size flag of min bytes or more.
func sizeOf[T integer](p *T, min int64) *intValue[T] {
	return &intValue[T]{p: p, min: min, max: maxOf[T](), size: true}
}

// or names 0 (auto, off), which the value then also takes.
func (v *intValue[T]) or(zero string) *intValue[T] {
	v.zero = zero
	return v
}

// maxOf is the largest T.
func maxOf[T integer]() int64 {
	switch any(T(0)).(type) {
	case int32:
		return math.MaxInt32
	case uint32:
		return math.MaxUint32
	}
	return math.MaxInt64 // int is 64 bits where this runs
}

func (v *intValue[T]) Type() string {
	t := "int"
	if v.size {
		t = "size"
	}
	if v.zero != "" {
		t += "|" + v.zero
	}
	return t
}

func (v *intValue[T]) String() string {
	switch n := int64(*v.p); {
	case n == 0 && v.zero != "":
		return v.zero
	case v.size:
		return formatSize(n)
	default:
		return strconv.FormatInt(n, 10)
	}
}

func (v *intValue[T]) Set(s string) error {
	if v.zero != "" && s == v.zero {
		*v.p = 0
		return nil
	}
	n, err := v.parse(s)
	if err != nil {
		return err
	}
	if n < v.min || n > v.max {
		return v.outOfRange()
	}
	*v.p = T(n)
	return nil
}

func (v *intValue[T]) parse(s string) (int64, error) {
	if v.size {
		n, err := parseSize(s)
		if err != nil && v.zero != "" {
			return 0, fmt.Errorf("%w, or %s", err, v.zero)
		}
		return n, err
	}
	n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil {
		return 0, errors.New("want a whole number")
	}
	return n, nil
}

func (v *intValue[T]) outOfRange() error {
	show := strconv.FormatInt
	if v.size {
		show = func(n int64, _ int) string { return formatSize(n) }
	}
	also := ""
	if v.zero != "" {
		also = ", or " + v.zero
	}
	if v.max == maxOf[T]() {
		return fmt.Errorf("want %s or more%s", show(v.min, 10), also)
	}
	return fmt.Errorf("want %s to %s%s", show(v.min, 10), show(v.max, 10), also)
}

// floatValue is a number from min to max.
type floatValue struct {
	p        *float64
	min, max float64
}

func floatOf(p *float64, min, max float64) *floatValue { return &floatValue{p, min, max} }

func (v *floatValue) Type() string   { return "number" }
func (v *floatValue) String() string { return strconv.FormatFloat(*v.p, 'g', -1, 64) }

func (v *floatValue) Set(s string) error {
	f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || math.IsNaN(f) {
		return errors.New("want a number")
	}
	if f < v.min || f > v.max {
		if v.max == math.MaxFloat64 {
			return fmt.Errorf("want %g or more", v.min)
		}
		return fmt.Errorf("want %g to %g", v.min, v.max)
	}
	*v.p = f
	return nil
}

// boolValue is a switch: --quiet, --reflection=false.
type boolValue struct{ p *bool }

func boolOf(p *bool) *boolValue { return &boolValue{p} }

func (v *boolValue) Type() string     { return "" }
func (v *boolValue) IsBoolFlag() bool { return true }
func (v *boolValue) String() string   { return strconv.FormatBool(*v.p) }

func (v *boolValue) Set(s string) error {
	b, err := strconv.ParseBool(s)
	if err != nil {
		return errors.New("want true or false")
	}
	*v.p = b
	return nil
}

// choiceValue is one of a few words.
type choiceValue struct {
	p       *string
	choices []string
	typ     string
}

// choiceOf is a flag taking one of choices; -h shows them as its type.
func choiceOf(p *string, choices ...string) *choiceValue {
	return &choiceValue{p, choices, strings.Join(choices, "|")}
}

func (v *choiceValue) Type() string   { return v.typ }
func (v *choiceValue) String() string { return *v.p }

func (v *choiceValue) Set(s string) error {
	for _, c := range v.choices {
		if strings.EqualFold(s, c) {
			*v.p = c
			return nil
		}
	}
	return fmt.Errorf("want %s", orList(v.choices))
}

// orList is "a, b or c".
func orList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

// textValue is a string: a file name, a command, an address. check, if
// not nil, checks a value given; typ says what it is.
type textValue struct {
	p     *string
	typ   string
	check func(string) error
}

// textOf is a string flag that a later step reads (a file, say).
func textOf(p *string, typ string) *textValue { return &textValue{p, typ, nil} }

// checkedOf is a string flag that check checks when it is given.
func checkedOf(p *string, typ string, check func(string) error) *textValue {
	return &textValue{p, typ, check}
}

// addrOf is a listening or peer address flag, host:port (the host may
// be empty: every interface).
func addrOf(p *string) *textValue { return checkedOf(p, "host:port", checkHostPort) }

// optionalAddrOf is a host:port flag where "" means off.
func optionalAddrOf(p *string) *textValue {
	return checkedOf(p, "host:port", func(s string) error {
		if s == "" {
			return nil
		}
		return checkHostPort(s)
	})
}

func (v *textValue) Type() string   { return v.typ }
func (v *textValue) String() string { return *v.p }

func (v *textValue) Set(s string) error {
	if v.check != nil {
		if err := v.check(s); err != nil {
			return err
		}
	}
	*v.p = s
	return nil
}

// checkHostPort checks an address of the form host:port, port 0..65535.
func checkHostPort(s string) error {
	_, port, err := net.SplitHostPort(s)
	if err != nil {
		return errors.New("want host:port, such as 127.0.0.1:8080 or :8080")
	}
	if err := checkPort(port); err != nil {
		return fmt.Errorf("port %q: %w", port, err)
	}
	return nil
}

// checkPort checks a port number, 0..65535.
func checkPort(s string) error {
	if _, err := strconv.ParseUint(s, 10, 16); err != nil {
		return errors.New("want a port number, 0 to 65535")
	}
	return nil
}

// parsedValue is any value a package's own parser reads (a profile, a
// layout, a proxy address); format writes it back for -h.
type parsedValue[T any] struct {
	p      *T
	typ    string
	parse  func(string) (T, error)
	format func(T) string
}

func parsedOf[T any](p *T, typ string, parse func(string) (T, error), format func(T) string) *parsedValue[T] {
	return &parsedValue[T]{p, typ, parse, format}
}

func (v *parsedValue[T]) Type() string   { return v.typ }
func (v *parsedValue[T]) String() string { return v.format(*v.p) }

func (v *parsedValue[T]) Set(s string) error {
	x, err := v.parse(s)
	if err != nil {
		return err
	}
	*v.p = x
	return nil
}

// listValue collects repeated or comma-separated values; the first one
// given replaces the default.
type listValue struct {
	p     *[]string
	typ   string
	check func(string) error // nil: any
	set   bool
}

// listOf is a list flag of items of type typ; check, if not nil, checks
// each.
func listOf(p *[]string, typ string, check func(string) error) *listValue {
	return &listValue{p: p, typ: typ, check: check}
}

func (v *listValue) Type() string   { return v.typ + ",..." }
func (v *listValue) String() string { return strings.Join(*v.p, ",") }

func (v *listValue) Set(s string) error {
	var items []string
	for _, item := range strings.Split(s, ",") {
		if item = strings.TrimSpace(item); item == "" {
			continue
		}
		if v.check != nil {
			if err := v.check(item); err != nil && item != strings.TrimSpace(s) {
				return fmt.Errorf("%s: %w", item, err)
			} else if err != nil {
				return err
			}
		}
		items = append(items, item)
	}
	if !v.set {
		*v.p, v.set = nil, true
	}
	*v.p = append(*v.p, items...)
	return nil
}
