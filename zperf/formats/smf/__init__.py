"""Binary SMF dumps: framing, the record walk and one decoder per record type.

``dump.smf_batches`` reads a dump once (any framing: RDW, BDW, VBS: the walk,
``physical`` > ``fast_walk`` > ``framing``) and hands each wanted record to the
decoder of its type and subtype (``record_decoder.Routes``, the only thing the
walk and the decoders share); the decoders a dump is read with are listed in
:mod:`zperf.formats.registry`.  A new record type is a decoder and a line
there (docs/architecture.md, "How a new SMF decoder plugs in").
"""
