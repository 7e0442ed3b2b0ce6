// Package deploy holds the tests of the deployment files that are not
// Kubernetes objects (those are in k8stest).
package deploy

import (
	"encoding/json"
	"os"
	"testing"

	"sigs.k8s.io/yaml"
)

// The provisioning files use the fields of Grafana's provisioning format
// (apiVersion 1) and nothing else, and agree with the dashboard: a
// Prometheus data source for its datasource variable, a file provider.
func TestGrafanaProvisioning(t *testing.T) {
	var ds struct {
		APIVersion  int `json:"apiVersion"`
		Datasources []struct {
			Name, UID, Type, Access, URL string
			IsDefault, Editable          bool
			JSONData                     map[string]any `json:"jsonData"`
		} `json:"datasources"`
	}
	var dp struct {
		APIVersion int `json:"apiVersion"`
		Providers  []struct {
			Name, Folder, Type    string
			DisableDeletion       bool `json:"disableDeletion"`
			AllowUIUpdates        bool `json:"allowUiUpdates"`
			UpdateIntervalSeconds int  `json:"updateIntervalSeconds"`
			Options               struct {
				Path                      string `json:"path"`
				FoldersFromFilesStructure bool   `json:"foldersFromFilesStructure"`
			} `json:"options"`
		} `json:"providers"`
	}
	for path, v := range map[string]any{
		"grafana/provisioning/datasources/prometheus.yml": &ds,
		"grafana/provisioning/dashboards/megaco.yml":      &dp,
	} {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := yaml.UnmarshalStrict(b, v); err != nil {
			t.Errorf("%s: %v", path, err)
		}
	}
	if ds.APIVersion != 1 || len(ds.Datasources) != 1 || ds.Datasources[0].Type != "prometheus" || ds.Datasources[0].UID == "" {
		t.Errorf("data sources: %+v", ds)
	}
	if dp.APIVersion != 1 || len(dp.Providers) != 1 || dp.Providers[0].Type != "file" || dp.Providers[0].Options.Path == "" {
		t.Errorf("dashboard providers: %+v", dp)
	}

	b, err := os.ReadFile("grafana/megaco-dashboard.json")
	if err != nil {
		t.Fatal(err)
	}
	var d struct {
		UID        string
		Templating struct {
			List []struct{ Name, Type, Query any }
		}
	}
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, v := range d.Templating.List {
		found = found || v.Name == "datasource" && v.Type == "datasource" && v.Query == ds.Datasources[0].Type
	}
	if d.UID == "" || !found {
		t.Errorf("dashboard: uid %q, a datasource variable of type %q: %v", d.UID, ds.Datasources[0].Type, found)
	}
}
