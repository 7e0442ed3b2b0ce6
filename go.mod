module megaco

go 1.26.8
