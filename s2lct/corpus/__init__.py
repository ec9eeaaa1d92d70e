"""Stage 1, corpus: labelled sentences (SST, user tables), word polarity, PoS tags, annotation."""
