package scan

import (
	"reflect"
	"testing"
)

// Reset leaves every field of a Summary as a new one has it, except Want
// and the lists' memory: filling each field through reflection catches a
// field added to Summary and forgotten in Reset.
func TestResetClearsAll(t *testing.T) {
	var s Summary
	v := reflect.ValueOf(&s).Elem()
	for i := range v.NumField() {
		fill(t, v.Field(i))
	}
	want := s.Want
	s.Reset()
	for i := range v.NumField() {
		f, name := v.Field(i), v.Type().Field(i).Name
		switch {
		case name == "Want":
			if s.Want != want {
				t.Errorf("Want changed")
			}
		case f.Kind() == reflect.Slice:
			if f.Len() != 0 || f.Cap() == 0 {
				t.Errorf("%s: len %d cap %d, want 0 and the memory kept", name, f.Len(), f.Cap())
			}
		case !f.IsZero():
			t.Errorf("%s not cleared: %v", name, f)
		}
	}
}

// fill sets f, through unexported fields too, to a value that is not
// its zero.
func fill(t *testing.T, f reflect.Value) {
	f = reflect.NewAt(f.Type(), f.Addr().UnsafePointer()).Elem()
	switch f.Kind() {
	case reflect.Bool:
		f.SetBool(true)
	case reflect.Int, reflect.Int64:
		f.SetInt(3)
	case reflect.Uint8, reflect.Uint16, reflect.Uint32:
		f.SetUint(3)
	case reflect.Slice:
		f.Set(reflect.MakeSlice(f.Type(), 1, 2))
	case reflect.Struct:
		for i := range f.NumField() {
			fill(t, f.Field(i))
		}
	default:
		t.Fatalf("fill: a %v field; teach fill and Reset about it", f.Kind())
	}
}
