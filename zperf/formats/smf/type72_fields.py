"""Field tables of SMF type 72 subtype 3 (workload activity, goal mode).

Offsets follow IBM's ERBSMF72 mapping at the z/OS 2.4 level (section lengths
in comments).  Newer releases append fields: sections are stepped by the
length in their triplet, never by these sizes, and bytes past what a layout
knows are ignored.  Units: HFP counters in 1024-microsecond units unless the
unit says otherwise; service units are weighted by their coefficient.
"""

from __future__ import annotations

from zperf.formats.layout import Field, Layout
from zperf.formats.smf.header import HEADER

#: Triplets of a 72.3 record in the order they follow the header.
SECTIONS = ("PR", "WM", "SS", "RG", "SC", "RT", "WR", "DN")

_triplets: list[Field] = [Field("SMF72TRN", 24, "u2", 2, "", "Number of triplets")]
for _i, _s in enumerate(SECTIONS):
    _base = 28 + 8 * _i
    _triplets += [
        Field(f"SMF72{_s}S", _base, "u4", 4, "bytes", f"Offset to {_s} section(s)"),
        Field(f"SMF72{_s}L", _base + 4, "u2", 2, "bytes", f"Length of one {_s} section"),
        Field(f"SMF72{_s}N", _base + 6, "u2", 2, "", f"Number of {_s} sections"),
    ]

RECORD_HEAD = Layout("SMF 72.3 header and triplets", 92, (*HEADER.fields, *_triplets))

#: Broken records (SMF72RAN = 1): the reassembly area at SMF72RAO in the product
#: section (:data:`~zperf.formats.smf.header.REASSEMBLY`, SMF72RBR/RSQ/RIO/RIL/RIN)
#: has SMF72RIN information blocks (SMF72RNN, SMF72RPP:
#: :data:`~zperf.formats.smf.header.REASSEMBLY_BLOCK`), one per triplet after the
#: product section's, in triplet order: these sections.  [UNCERTAIN: the order is
#: inferred from ERBSMF72, where the blocks follow the triplets; no real broken
#: record has been seen.]
REASSEMBLY_SECTIONS = SECTIONS[1:]

WMS = Layout(
    "R723WMS workload manager control section",
    280,
    (
        Field("R723MSCF", 0, "bits", 1, "", "X'80' report class"),
        Field("R723MFLG", 1, "bits", 1, "", "Honor priority and SMT flags"),
        Field("R723MNSP", 4, "text", 8, "", "Service policy name"),
        Field("R723MDSP", 12, "text", 32, "", "Service policy description"),
        Field("R723MTPA", 44, "stck", 8, "", "Policy activation time, local"),
        Field("R723MCPU", 52, "u4", 4, "x10000", "CPU service coefficient"),
        Field("R723MIOC", 56, "u4", 4, "x10000", "I/O service coefficient"),
        Field("R723MMSO", 60, "u4", 4, "x10000", "Storage service coefficient"),
        Field("R723MSRB", 64, "u4", 4, "x10000", "SRB service coefficient"),
        Field("R723MTVL", 68, "u4", 4, "ms", "WLM sampling interval"),
        Field("R723MWNM", 80, "text", 8, "", "Workload name"),
        Field("R723MWDE", 88, "text", 32, "", "Workload description"),
        Field("R723MCNM", 120, "text", 8, "", "Service or report class name"),
        Field("R723MCDE", 128, "text", 32, "", "Class description"),
        Field("R723MCPG", 160, "u2", 2, "", "Number of periods of the class"),
        Field("R723MADJ", 172, "u4", 4, "1/16 us per SU", "CPU rate adjustment"),
        Field("R723MIDN", 176, "text", 8, "", "Service definition name"),
        Field("R723CLSC", 232, "text", 8, "", "Service class that last contributed"),
        Field("R723NFFI", 240, "u4", 4, "/256", "zAAP normalization factor"),
        Field("R723NFFS", 244, "u4", 4, "/256", "zIIP normalization factor"),
        Field("R723NADJ", 248, "u4", 4, "", "Nominal CPU rate adjustment"),
        Field("R723CECA", 252, "u4", 4, "", "CEC adjustment factor"),
        Field("R723MCF", 256, "u4", 4, "/1024", "MT max capacity factor, CPs"),
        Field("R723MCFS", 260, "u4", 4, "/1024", "MT max capacity factor, zIIPs"),
        Field("R723MCFI", 264, "u4", 4, "/1024", "MT max capacity factor, zAAPs"),
        Field("R723CPAA", 268, "u4", 4, "", "CPA actual (model capacity rating)"),
        Field("R723CPAS", 272, "u4", 4, "", "CPA scaling factor"),
    ),
)

#: WMS bytes the parser needs: through R723NFFS.
WMS_MIN_LENGTH = WMS.end_of("R723NFFS")

RGS = Layout(
    "R723RGS resource group section",
    160,
    (
        Field("R723GGNM", 0, "text", 8, "", "Resource group name"),
        Field("R723GGDE", 8, "text", 32, "", "Resource group description"),
        Field("R723GGLT", 40, "bits", 1, "", "Limit type flags"),
        Field("R723GGMN", 44, "u4", 4, "", "Minimum capacity"),
        Field("R723GGMX", 48, "u4", 4, "", "Maximum capacity"),
    ),
)


def _hfp(name: str, offset: int, unit: str, text: str) -> Field:
    return Field(name, offset, "hfp", 8, unit, text)


def _u4(name: str, offset: int, text: str) -> Field:
    return Field(name, offset, "u4", 4, "", text)


_SAMPLES = ("CSWI", "CMPL", "CAPR", "CACO", "CAXM", "CVIO", "CHSP", "CCHS", "CUNK", "CIDL",
            "CPDE", "CPQU", "CSAC")
_SERVER = ("CSPV", "CSVI", "CSHS", "CSMP", "CSSW", "CNDI")
_PAGING = ("CPIR", "CHPI", "CBPI", "CPIE", "CBPE", "CBKA", "CBKE")
_TENANT = ("TSUCP", "TSUSP", "TSUOCP", "MSUCP", "MSUSP", "MSUOCP", "ASUCP", "ASUSP", "ASUOCP",
           "BSUCP", "BSUSP", "BSUOCP")
_MICROS = ("CTETX", "CXETX", "CETSX", "CQDTX", "CADTX", "CCVTX", "CIQTX")

SCS = Layout(
    "R723SCS service/report class period section",
    792,
    (
        Field("R723CRTX", 0, "u2", 2, "", "Index of this period's response time entry"),
        Field("R723CWMX", 2, "u2", 2, "", "Index of the first work manager state entry"),
        Field("R723CWMN", 4, "u2", 2, "", "Number of work manager state entries"),
        Field("R723CRS1", 6, "bits", 1, "", "X'80' heterogeneous report class period"),
        Field("R723CADF", 7, "bits", 1, "", "Data present flags"),
        Field("R723CPER", 8, "u1", 1, "", "Period number"),
        Field("R723CRTF", 9, "bits", 1, "", "Goal unit: X'80' ms X'40' s X'20' min X'10' h"),
        Field("R723CRGF", 10, "bits", 1, "", "Goal type: X'80' pct X'40' avg X'20' vel "
              "X'10' disc X'08' sys"),
        Field("R723CVAL", 12, "u4", 4, "", "Response time or velocity goal"),
        Field("R723CPCT", 16, "u2", 2, "%", "Goal percentile"),
        Field("R723CIMP", 18, "u2", 2, "", "Importance"),
        Field("R723CDUR", 20, "u4", 4, "SU", "Period duration"),
        _hfp("R723CSRV", 24, "SU", "Total service units"),
        _hfp("R723CCPU", 32, "SU", "TCB service units incl. normalized zIIP/zAAP"),
        _hfp("R723CIOC", 40, "SU", "I/O service units"),
        _hfp("R723CMSO", 48, "SU", "Storage service units"),
        _hfp("R723CSRB", 56, "SU", "SRB service units incl. normalized zIIP/zAAP"),
        *(_hfp(f"R723{n}", 64 + 8 * i, "pages", "Paging count") for i, n in enumerate(_PAGING)),
        _hfp("R723CPRS", 120, "1024 us", "Page residency time"),
        _hfp("R723CERS", 128, "1024 us", "Expanded storage residency time"),
        _hfp("R723CTRR", 136, "1024 us", "In-storage residency time (-> MPL)"),
        _hfp("R723CTAT", 144, "1024 us", "Transaction active time (-> AVG)"),
        _hfp("R723CRCT", 152, "us", "Region control task time"),
        _hfp("R723CIIT", 160, "us", "I/O interrupt time"),
        _hfp("R723CHST", 168, "us", "Hiperspace service time"),
        _u4("R723CSWC", 176, "Swap count"),
        _u4("R723CCRM", 180, "Hiperspace read misses"),
        _u4("R723CRCP", 184, "Ended transactions"),
        _u4("R723CARC", 188, "Abnormally ended transactions"),
        _u4("R723CNCP", 192, "Transactions that completed execution"),
        _u4("R723CANC", 196, "Abnormal execution completions"),
        _hfp("R723CTET", 200, "1024 us", "Elapsed time of ended transactions"),
        _hfp("R723CXET", 208, "1024 us", "Execution time"),
        _hfp("R723CETS", 216, "(1024 us)^2", "Sum of squared elapsed times"),
        _u4("R723CCUS", 224, "CPU using samples"),
        _u4("R723CTOT", 228, "Total delay samples"),
        _u4("R723CCDE", 232, "CPU delay samples"),
        _u4("R723CCCA", 236, "CPU capping delay samples"),
        *(_u4(f"R723{n}", 240 + 4 * i, "State samples") for i, n in enumerate(_SAMPLES)),
        _hfp("R723CSRS", 292, "1024 us", "Shared page residency time"),
        _hfp("R723CSPA", 300, "pages", "Shared page-ins from auxiliary storage"),
        _hfp("R723CSPE", 308, "pages", "Shared page-ins from expanded storage"),
        _hfp("R723CICT", 316, "128 us", "DASD connect time"),
        _hfp("R723CIWT", 324, "128 us", "DASD wait (queue + pending) time"),
        _hfp("R723CIDT", 332, "128 us", "DASD disconnect time"),
        _u4("R723CIRC", 340, "DASD start subchannel count"),
        _u4("R723CTOU", 344, "Total using samples"),
        _u4("R723CIOU", 348, "DASD using samples"),
        _u4("R723CIOD", 352, "DASD delay samples"),
        _u4("R723CQ", 356, "Queue delay samples"),
        *(_u4(f"R723{n}", 360 + 4 * i, "Server delay samples") for i, n in enumerate(_SERVER)),
        _u4("R723CTDQ", 384, "Total delay samples incl. batch queue delay"),
        _hfp("R723CTSA", 388, "samples", "Total execution samples"),
        _hfp("R723CIOT", 396, "128 us", "IOS queue time"),
        _hfp("R723CQDT", 404, "1024 us", "Queue delay time"),
        _hfp("R723CADT", 412, "1024 us", "Resource affinity ineligible time"),
        _hfp("R723CCVT", 420, "1024 us", "JCL conversion time"),
        _hfp("R723CIQT", 428, "1024 us", "Ineligible on job queue time"),
        _hfp("R723CIEA", 436, "1024 us", "Independent enclave active time"),
        _hfp("R723CXEA", 444, "1024 us", "Exported (multisystem) enclave active time"),
        _hfp("R723CFEA", 452, "1024 us", "Foreign (remote) enclave active time"),
        _u4("R723APU", 468, "Crypto using samples"),
        _u4("R723APD", 472, "Crypto delay samples"),
        _u4("R723FQD", 476, "Feature queue delay samples"),
        Field("R723PLSC", 480, "text", 8, "", "Service class that last contributed"),
        _u4("R723RCOD", 488, "Contention delay samples"),
        _u4("R723RCOU", 492, "Contention using samples"),
        _hfp("R723ECTC", 496, "1024 us", "CPU time while promoted by ENQ management"),
        _u4("R723IFAU", 504, "zAAP using samples"),
        _u4("R723IFCU", 508, "zAAP-eligible on CP using samples"),
        _u4("R723IFAD", 512, "zAAP delay samples"),
        _u4("R723SUPU", 532, "zIIP using samples"),
        _u4("R723SUCU", 536, "zIIP-eligible on CP using samples"),
        _u4("R723SUPD", 540, "zIIP delay samples"),
        _hfp("R723CSUP", 544, "SU", "Service units on zIIPs, raw"),
        _hfp("R723CSUC", 552, "SU", "zIIP-eligible service units run on CPs"),
        _hfp("R723CIFA", 560, "SU", "Service units on zAAPs, raw"),
        _hfp("R723CIFC", 568, "SU", "zAAP-eligible service units run on CPs"),
        _hfp("R723TPDP", 576, "1024 us", "CPU time promoted (chronic contention)"),
        _hfp("R723CPDP", 584, "1024 us", "CPU time promoted (CPU critical)"),
        _hfp("R723LPDP", 592, "1024 us", "CPU time promoted (local lock)"),
        _hfp("R723SPDP", 600, "1024 us", "CPU time promoted (SRB)"),
        _u4("R723RTDM", 608, "Response time distribution midpoint, ms"),
        _u4("R723RTDC", 612, "Midpoint changes"),
        Field("R723RTDT", 616, "stck", 8, "", "Last midpoint change"),
        *(_hfp(f"R723{n}", 624 + 8 * i, "SU", "Tenant / container pricing service units")
          for i, n in enumerate(_TENANT)),
        *(_hfp(f"R723{n}", 720 + 8 * i, "us^2" if n == "CETSX" else "us",
               "Microsecond twin of the field without X") for i, n in enumerate(_MICROS)),
    ),
)

#: Period section bytes the parser needs: through R723CIFC (z/OS 1.x sections end earlier).
SCS_MIN_LENGTH = SCS.end_of("R723CIFC")
#: Sections at least this long carry the microsecond fields (R723CTETX...).
SCS_MICROS_LENGTH = SCS.end_of("R723CIQTX")

RTD_BUCKETS = 14
RTS = Layout(
    "R723RTS response time distribution entry",
    4 * RTD_BUCKETS,
    tuple(Field(f"R723RB{i + 1:02d}", 4 * i, "u4", 4, "", f"Bucket {i + 1}")
          for i in range(RTD_BUCKETS)),
)

#: Bucket limits, % of the midpoint, that RMF writes in entry 0 (the map).
RTD_MAP = (50, 60, 70, 80, 90, 100, 110, 120, 130, 140, 150, 200, 400, 0xFFFFFFFF)
