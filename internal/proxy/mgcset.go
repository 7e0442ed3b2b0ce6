package proxy

import "megaco/internal/model"

// followMGC turns the MGC side to the MGC that id names, reporting
// whether it did: not yet (one MGC).
func (p *Proxy) followMGC(id *model.MId) bool { return false }
