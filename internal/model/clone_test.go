package model_test

import (
	"fmt"
	"reflect"
	"testing"
	"unsafe"

	"megaco/internal/codec"
	"megaco/internal/corpus"
	"megaco/internal/model"
)

// A message with every field of every type set (each pointer to a value,
// each list one element long, each string and byte field non-empty) is
// cloned whole and shares nothing: Clone misses no field the schema has.
func TestCloneEveryField(t *testing.T) {
	var m model.MegacoMessage
	fill(reflect.ValueOf(&m).Elem(), 0)
	cl := m.Clone()
	if !reflect.DeepEqual(cl, &m) {
		t.Error("the clone differs from the original")
	}
	if p := shared(reflect.ValueOf(&m).Elem(), reflect.ValueOf(cl).Elem(), "m"); p != "" {
		t.Errorf("the clone shares memory with the original at %s", p)
	}
}

// fill sets every field below v: strings, byte and other lists one
// element long, pointers to filled values; depth bounds a recursive type.
func fill(v reflect.Value, depth int) {
	if depth > 40 {
		return
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString(fmt.Sprint("s", depth))
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		fill(v.Index(0), depth+1)
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem(), depth+1)
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			fill(v.Field(i), depth+1)
		}
	case reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(1)
	case reflect.Int, reflect.Int32, reflect.Int64:
		v.SetInt(1)
	case reflect.Bool:
		v.SetBool(true)
	}
}

// Clone copies every corpus message whole (deeply equal to the original)
// and shares no memory with it: no string, slice or pointer of the copy
// points where the original's does. The originals come from transient
// decodings, whose strings and bytes alias decoder memory: exactly what
// a clone must not keep.
func TestCloneSharesNothing(t *testing.T) {
	for _, c := range []struct{ codec, ext string }{{"ber", ".ber"}, {"compact", ".compact.txt"}} {
		files := corpus.Files(t, c.ext)
		for _, name := range corpus.Names(files) {
			m, release, _, err := codec.DecodeTransient(files[name], c.codec, codec.InputForm, codec.Options{})
			if err != nil {
				t.Fatalf("%s %s: %v", c.codec, name, err)
			}
			cl := m.Clone()
			if !reflect.DeepEqual(cl, m) {
				t.Errorf("%s %s: the clone differs from the original", c.codec, name)
			}
			if p := shared(reflect.ValueOf(m).Elem(), reflect.ValueOf(cl).Elem(), "m"); p != "" {
				t.Errorf("%s %s: the clone shares memory with the original at %s", c.codec, name, p)
			}
			release()
		}
	}
}

// shared returns the path of the first string, slice or pointer of b that
// points where a's does, "" if none.
func shared(a, b reflect.Value, path string) string {
	switch a.Kind() {
	case reflect.Pointer:
		if a.IsNil() || b.IsNil() {
			return ""
		}
		if a.Pointer() == b.Pointer() {
			return path
		}
		return shared(a.Elem(), b.Elem(), path)
	case reflect.Slice:
		if a.Len() > 0 && a.Pointer() == b.Pointer() {
			return path
		}
		for i := 0; i < a.Len(); i++ {
			if p := shared(a.Index(i), b.Index(i), fmt.Sprintf("%s[%d]", path, i)); p != "" {
				return p
			}
		}
	case reflect.String:
		if a.Len() > 0 && unsafe.StringData(a.String()) == unsafe.StringData(b.String()) {
			return path
		}
	case reflect.Struct:
		for i := 0; i < a.NumField(); i++ {
			if p := shared(a.Field(i), b.Field(i), path+"."+a.Type().Field(i).Name); p != "" {
				return p
			}
		}
	}
	return ""
}
