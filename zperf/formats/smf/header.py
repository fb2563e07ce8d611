"""The standard SMF record header and the RMF product section.

Offsets count from the start of the record *including* the 4-byte record
descriptor word, as IBM's mapping macros do (SMFxLEN at 0).  The header is
local time: SMFxTME is hundredths of a second since midnight, SMFxDTE the
packed date ``0cyydddF``.  The RMF product section is shared by SMF 70-79.
"""

from __future__ import annotations

from zperf.formats.layout import Field, Layout

#: Flag bit in SMFxFLG: the record has a subtype header (SMFxSSI, SMFxSTY).
FLAG_SUBTYPES = 0x40

HEADER = Layout(
    "SMF standard header with subtypes",
    24,
    (
        Field("SMFLEN", 0, "u2", 2, "bytes", "Record length including this RDW"),
        Field("SMFSEG", 2, "u2", 2, "", "Segment descriptor (0 unless spanned)"),
        Field("SMFFLG", 4, "bits", 1, "", "System indicator; X'40' = subtypes used"),
        Field("SMFRTY", 5, "u1", 1, "", "Record type"),
        Field("SMFTME", 6, "u4", 4, "1/100 s", "Time moved to SMF buffer, since midnight"),
        Field("SMFDTE", 10, "packed", 4, "0cyydddF", "Date moved to SMF buffer"),
        Field("SMFSID", 14, "text", 4, "", "System identification (SMFPRMxx SID)"),
        Field("SMFSSI", 18, "text", 4, "", "Subsystem identification ('RMF ')"),
        Field("SMFSTY", 22, "u2", 2, "", "Record subtype"),
    ),
)

#: Header without subtypes (18 bytes): IFASMFDP/DL dump header/trailer, old types.
SHORT_HEADER = Layout(
    "SMF standard header without subtypes",
    18,
    tuple(f for f in HEADER.fields if f.offset < 18),
)

PRODUCT = Layout(
    "RMF product section",
    104,
    (
        Field("SMF72MFV", 0, "packed", 2, "", "RMF version number"),
        Field("SMF72PRD", 2, "text", 8, "", "Product name 'RMF'"),
        Field("SMF72IST", 10, "packed", 4, "0hhmmssF", "Interval start time, local"),
        Field("SMF72DAT", 14, "packed", 4, "0cyydddF", "Interval start date, local"),
        Field("SMF72INT", 18, "packed", 4, "mmsstttF", "Interval length"),
        Field("SMF72SAM", 24, "u4", 4, "", "Number of samples"),
        Field("SMF72FLA", 30, "u2", 2, "", "Flags"),
        Field("SMF72CYC", 36, "packed", 4, "000ttttF", "Sampling cycle, ms"),
        Field("SMF72MVS", 40, "text", 8, "", "z/OS level 'ZVvvrrmm'"),
        Field("SMF72IML", 48, "u1", 1, "", "Processor complex type"),
        Field("SMF72PRF", 49, "bits", 1, "", "Processor flags: X'08' zAAP, X'04' zIIP"),
        Field("SMF72PTN", 50, "u1", 1, "", "PR/SM partition number"),
        Field("SMF72SRL", 51, "u1", 1, "", "SMF record level"),
        Field("SMF72IET", 52, "u8", 8, "", "Interval expiration token"),
        Field("SMF72LGO", 60, "u8", 8, "STCK", "Offset GMT to local time"),
        Field("SMF72RAO", 68, "u4", 4, "bytes", "Reassembly area offset from this section"),
        Field("SMF72RAL", 72, "u2", 2, "bytes", "Reassembly area length"),
        Field("SMF72RAN", 74, "u2", 2, "", "1 = broken record (reassembly area present)"),
        Field("SMF72OIL", 76, "u2", 2, "s", "Original interval length"),
        Field("SMF72SYN", 78, "u2", 2, "s", "SYNC value"),
        Field("SMF72GIE", 80, "stck", 8, "", "Projected interval end, GMT"),
        Field("SMF72XNM", 88, "text", 8, "", "Sysplex name"),
        Field("SMF72SNM", 96, "text", 8, "", "System name (IEASYSxx SYSNAME)"),
    ),
)

REASSEMBLY = Layout(
    "RMF reassembly area (broken records)",
    16,
    (
        Field("SMF72RBR", 0, "u2", 2, "", "Number of broken records built from the original"),
        Field("SMF72RSQ", 2, "u2", 2, "", "Sequence number of this broken record"),
        Field("SMF72RIO", 4, "u4", 4, "bytes", "Offset to the first information block"),
        Field("SMF72RIL", 8, "u2", 2, "bytes", "Length of one information block"),
        Field("SMF72RIN", 10, "u2", 2, "", "Number of information blocks"),
    ),
)

REASSEMBLY_BLOCK = Layout(
    "RMF reassembly information block",
    4,
    (
        Field("SMF72RNN", 0, "u2", 2, "", "Number of sections of this kind in the original"),
        Field("SMF72RPP", 2, "u2", 2, "", "Position (1-based) of the first one carried here"),
    ),
)
