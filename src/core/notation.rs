//! Move notation: ICCS, Chinese and WXF (being written).
