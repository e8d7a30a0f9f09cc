# runs later
