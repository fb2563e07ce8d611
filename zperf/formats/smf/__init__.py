"""Binary SMF dumps: framing, the record walk and one decoder per record type.

``dump.read_smf`` reads a dump once (any framing: RDW, BDW, VBS) and hands
each wanted record to the decoder of its type; the decoders a dump is read
with are listed in :mod:`zperf.formats.registry`.
"""
