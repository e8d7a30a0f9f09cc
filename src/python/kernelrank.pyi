"""Type stubs of the kernelrank module (docs/python.md), generated from the module by
scripts/generate-python-stubs.py: do not edit. Each docstring is the first paragraph of the
module's own; help(kernelrank.NAME) shows the whole."""

import os
from fractions import Fraction
from typing import Any, Mapping, Protocol, Sequence

__version__: str

class _SupportsStateDict(Protocol):
    """Anything with state_dict(), as torch.nn.Module has."""

    def state_dict(self) -> Mapping[str, Any]: ...

class BallInstance:
    """One instance evaluated with ball arithmetic: the output y lies in [output_lo, output_hi]
    (exact dyadic fractions.Fraction), and verdict says whether that enclosure lies inside the
    band |y - target| < 1/2 ('passes'), at or beyond its edge ('fails'), or across it
    ('undecided')."""

    tokens: list[str]
    """The tokens as 0/1 strings, coordinate 1 first"""
    query: int
    """The queried position, 1-based"""
    target: int
    """The Min-IP target (int)"""
    output_lo: Fraction | None
    """Lower end of the output's enclosure (Fraction) or None"""
    output_hi: Fraction | None
    """Upper end of the output's enclosure (Fraction) or None"""
    error_lo: Fraction | None
    """|y - target| >= error_lo (Fraction) or None"""
    error_hi: Fraction | None
    """|y - target| <= error_hi (Fraction) or None"""
    output: str
    """The ball in decimal, for display (str)"""
    verdict: str
    """'passes', 'fails' or 'undecided'"""
    precision: int
    """Bits of the pass that produced this enclosure"""

class BallResult:
    """The rigorous report of kernelrank.evaluate on a head with transcendental features (elu1,
    exp, softmax), as `kernelrank eval` prints it. solves is True only when every instance was
    decided and passes; undecided instances are never counted as passing or failing."""

    solves: bool
    """Every instance decided, none fails"""
    decided: bool
    """No instance stayed undecided"""
    verdict: str
    """'solves (decided rigorously)', 'FAILS (decided rigorously)' or 'undecided at P bits'"""
    instances: int
    """Instances evaluated (int)"""
    passing: int
    """Instances decided to pass (int)"""
    failing: int
    """Instances decided to fail (int)"""
    undecided: int
    """Instances undecided at the final precision (int)"""
    start_precision: int
    """Bits of the first pass"""
    max_precision: int
    """The cap on the doubling precision"""
    final_precision: int
    """The highest precision a pass used"""
    decided_at: dict[int, int]
    """{bits: instances decided at that precision}"""
    max_error_lo: Fraction | None
    """max |y - t| >= this (Fraction) or None"""
    max_error_hi: Fraction | None
    """max |y - t| <= this (Fraction) or None"""
    worst: BallInstance | None
    """The BallInstance with the largest error_hi, or None"""
    failures: list[BallInstance]
    """The first failing instances (list of BallInstance)"""
    undecided_instances: list[BallInstance]
    """The first undecided instances (list of BallInstance)"""
    method: str
    """'family, ball arithmetic' or 'brute force, ball arithmetic'"""
    task: str
    """The task, as the CLI's 'task:' line"""
    model: str
    """The head's description"""
    feature_map: str
    """'elu1', 'exp' or 'softmax'"""
    def __bool__(self) -> bool: ...

class BoundResult:
    """A certified lower bound r >= bound on the feature rank of models solving T(m,n), as
    `kernelrank bound` reports it for one m."""

    m: int
    """Token width"""
    n: int
    """Sequence length"""
    bound: int
    """The certified bound (int): every model solving T(m,n) has r >= bound"""
    source: str
    """Which argument gives it: 'code', 'order', ... (as the CLI prints)"""
    description: str
    """One line for people about the winning source"""
    construction: str | None
    """The code construction (str) when the code bound wins, else None"""
    rule: str
    """The rule of the certificate (as the CLI's JSON 'rule')"""
    rows: int | None
    """Rows of the winning code construction, or None"""
    sources: list[tuple[str, int, str, bool]]
    """(source, bound, detail, checked) for every source that gave a bound: checked is True for
    the number the checker verified (the winner's), False for a producer's claim that was not
    checked"""
    certificate: str
    """The certificate text (verified by the checker library)"""
    certificate_path: str | None
    """Where the certificate was written, or None"""
    message: str
    """The CLI's sentence about the written certificate ('' if none)"""
    r: int | None
    """The r asked about (int), or None"""
    r_ruled_out: bool | None
    """Whether r < bound (bool), or None"""
    answer: str | None
    """With r: 'ruled_out' (r < bound), 'suffices' (a verified layered head has at most r
    features) or 'open'; None without r"""
    head_r: int | None
    """With r not ruled out: the features of the best verified layered head for T(m,3) (int), or
    None"""
    head_file: str | None
    """That head's shipped file (str), or None (found now, or no head)"""
    model_class: str
    """'NK' or 'PF'"""
    position_dependent: bool
    """Bound for position-dependent maps"""
    def __int__(self) -> int: ...

class CertifyResult:
    """The best rank bound an explicit family supports, as `kernelrank certify` reports it."""

    found: bool
    """Whether the family supports a bound (bool)"""
    bound: int | None
    """The certified bound r >= bound (int, the checker's number), or None"""
    rule: str | None
    """'trace', 'shifted-trace' or 'dominance', or None"""
    rows: list[MinRankRow]
    """Rows of the bound (int), or None"""
    steps_supported: int
    """Domination steps the family supports (int)"""
    steps_used: int | None
    """Steps the rows' chains use (int), or None"""
    trace_value: Fraction | None
    """T (or T_W) of the trace rules (Fraction), or None"""
    shift: Fraction | None
    """t of W = t J (shifted trace, Fraction), or None"""
    why_not: list[str]
    """Why there is no bound (list of str)"""
    incomplete_count: int
    """Incomplete patterns in the family (int)"""
    incomplete: list[str]
    """The first incomplete patterns, as the CLI words them (list of str)"""
    checked: bool | None
    """Whether the checker verified the bound's certificate (bool), or None without a bound"""
    checker_status: str | None
    """The checker's status line on the certificate ('s VERIFIED'), or None"""
    family: str | None
    """The family file (str)"""
    m: int
    """Token width of the family"""
    n: int
    """Sequence length of the family"""
    instances: int
    """Instances in the family (int)"""
    lost_steps: list[str] | None
    """The first steps of the baseline the family no longer supports (list of str), or None
    without a baseline"""
    lost_steps_count: int | None
    """How many steps of the baseline are lost (int), or None"""
    certificate_path: str | None
    """Where the certificate was written, or None"""
    certificate: str | None
    """The certificate text (verified by the checker library), or None without a bound"""
    message: str
    """The CLI's sentence about the written certificate ('' if none)"""
    def __bool__(self) -> bool: ...

class CheckResult:
    """The independent checker's verdict on a certificate (what kernelrank-check prints)."""

    verified: bool
    """True exactly when the checker prints 's VERIFIED'"""
    status: str
    """The checker's status line, 's VERIFIED' or 's NOT VERIFIED'"""
    message: str
    """The checker's error lines ('FILE:LINE: error: MESSAGE'), '' when verified"""
    output: str
    """Everything kernelrank-check prints on stdout"""
    bound: int | None
    """The bound r >= bound the rule gives (int), or None"""
    claim: int | None
    """The certificate's claimed bound (int), or None"""
    exit_code: int
    """kernelrank-check's exit code: 0, 1, 2 or 4 (internal error)"""
    path: str
    """The certificate file"""
    def __bool__(self) -> bool: ...

class ConstructResult:
    """An exact relu head for a family (graded complement detectors), as `kernelrank construct`
    reports it."""

    family: str | None
    """The family file (str)"""
    instances: int
    """Instances in the family (int)"""
    queries: int
    """Distinct queries of the family (int)"""
    r: int
    """Features of the head: one per query (int)"""
    activation: str
    """The feature map: 'relu'"""
    slope: Fraction
    """Slope a of the key features (Fraction)"""
    diagonal: Fraction
    """Query feature B on the query's own detector (Fraction)"""
    candidates: int
    """(a, B) pairs evaluated (int)"""
    solves: bool
    """Whether the model text, read back, solves the family exactly (bool)"""
    failing: int
    """Failing instances (int)"""
    max_error: Fraction | None
    """The exact max error (Fraction), or None"""
    model_path: str | None
    """Where the model was written (only when it solves), or None"""
    worst: Instance | None
    """An Instance attaining max_error, or None"""
    failures: list[Instance]
    """The first failing instances (list of Instance)"""
    model_text: str
    """The model file's text (kind=parametric), written or not"""
    def __bool__(self) -> bool: ...

class Counterexample:
    """What `kernelrank counterexample` finds: a failing instance (or why there is none)."""

    path: str
    """How it was found: 'proof-guided', 'exhaustive' or 'none'"""
    failing: Instance | None
    """The failing Instance (exact output and error), or None"""
    construction: str
    """Rows the proof-guided path used"""
    explanation: str
    """The violated ratio, chain link and inequality"""
    fallback_reason: str
    """Why the proof-guided path did not decide ('' if it did)"""
    kernel_entries: int
    """Kernel values the proof-guided path evaluated"""
    solves: bool
    """True when an exhaustive search proved that none exists"""
    task: str
    """The task searched, e.g. 'T(24,3)'"""
    model: str
    """The model's description"""
    out: str | None
    """The one-line family file written (out=), or None"""

class Error(Exception):
    """Base class of every error kernelrank raises; the message is the text the CLI prints."""

class EvalResult:
    """The exact report of kernelrank.evaluate (the CLI's `eval` report). Counts are Python ints,
    exact values fractions.Fraction."""

    solves: bool
    """True when no instance fails (every error < 1/2)"""
    instances: int
    """Instances evaluated (int)"""
    failing: int
    """Failing instances, undefined ones included (int)"""
    undefined: int
    """Instances with a zero denominator (int)"""
    negative_solved: int
    """Solved instances whose denominator is negative (int; signed kernels)"""
    negative_example: Instance | None
    """The first of them (Instance), or None"""
    max_error: Fraction | None
    """Exact largest error over the defined outputs (Fraction), None if there is none"""
    error_rate: Fraction
    """failing / instances (Fraction)"""
    worst: Instance | None
    """An Instance attaining max_error, or None"""
    failures: list[Instance]
    """The first failing instances (list of Instance)"""
    method: str
    """'family', 'brute force', 'token set' or 'profiles'"""
    task: str
    """The task, as the CLI's 'task:' line"""
    model: str
    """The model's description, as the CLI's 'model:' line"""
    model_class: str
    """The model class (e.g. 'PF')"""
    class_detail: str
    """Why the model is in its class"""
    def __bool__(self) -> bool: ...

class GeneratedSets:
    """Disjoint train and test instance sets, as `kernelrank generate` draws them."""

    train: list[Instance]
    """Training instances (list of Instance, with targets)"""
    test: list[Instance]
    """Test instances (list of Instance), disjoint from train"""
    files: list[str]
    """The files written (out=), in the CLI's order"""
    m: int
    """Token width"""
    n: int
    """Sequence length"""
    source: str
    """Where the tokens come from"""

class IndependentAnswers:
    """Queries whose answers vary independently over the contexts: values**queries <= D"""

    queries: int
    """Number of queries q"""
    values: int
    """Values each answers, s + 1"""
    s: int
    """s"""
    product: int
    """(s+1)**q (int)"""
    log2: tuple[int, int]
    """(floor, ceil) of log2 of the product"""
    query_tokens: list[str]
    """The queries (str tokens)"""
    value_sets: list[list[int]]
    """Each query's answers (ints)"""
    verified: str
    """How the independence was verified"""
    block_weight: int | None
    """The cube: coordinates per disjoint block query (0: none); a family: None"""
    witness_contexts: str | None
    """A family: the contexts that witness the answers; the cube: None"""

class InputError(Error, ValueError):
    """Malformed input: the message is 'FILE:LINE: error: MESSAGE' (line 0: the whole file), as
    the CLI prints it; attributes file and line (exit code 2)."""

    file: str
    line: int
    column: int

class Instance:
    """One Min-IP instance: the tokens x_1..x_n, the queried position and the target min_j
    <x_query, x_j>."""

    tokens: list[str]
    """The tokens as 0/1 strings, coordinate 1 first (list of str)"""
    query: int
    """The queried position, 1-based as the CLI prints it (int)"""
    target: int
    """The Min-IP target min_j <x_query, x_j> (int)"""
    output: Fraction | None
    """Exact model output (Fraction), or None"""
    error: Fraction | None
    """Exact |output - target| (Fraction), or None"""
    fails: bool | None
    """True when error >= 1/2 or the output is undefined; None when not evaluated"""

class InternalError(Error, RuntimeError):
    """A failed internal consistency check: a bug, please report it (exit code 4)."""

class MinRankCell:
    """One (m, class, r) cell of the min-rank table."""

    r: int
    """Features"""
    status: str
    """'model found and verified', 'refuted-certified', 'refuted-exact (not checker-verified)',
    'refuted-corroborated', 'refuted-Z3-only', 'refuted-inherited' or 'unknown'"""
    label: str
    """The search's label"""
    detail: str
    """Why"""
    seconds: float
    """Wall-clock seconds of the cell"""
    files: list[str]
    """Model files written (models_dir)"""
    inherited_from: str | None
    """For refuted-inherited: the status at m-1, else None"""
    checker_status: str
    """For 'refuted-certified': the checker's status line on the cell's certificate, checked in
    memory ('s VERIFIED'); else ''"""

class MinRankResult:
    """The table of minimal feature ranks for T(m,3), as `kernelrank min-rank` reports it."""

    n: int
    """Sequence length (3)"""
    z3_version: str
    """The linked Z3"""
    rows: list[MinRankRow]
    """The MinRankRows, m ascending, per class"""
    settled: bool
    """Every row is settled"""
    unknown_resource_only: bool
    """Not settled, and every open cell ran out of a budget (the CLI's exit 3)"""

class MinRankRow:
    """One row (m, class) of the min-rank table."""

    m: int
    """Token width"""
    model_class: str
    """'NK' or 'PF'"""
    lower: int
    """Proved: r(m) >= lower"""
    upper: int | None
    """A verified model has this many features, or None"""
    settled: bool
    """lower == upper"""
    min_r: str
    """The table's 'min r': '3', '2..4' or '>= 2'"""
    seconds: float
    """Wall-clock seconds of the row"""
    cells: list[MinRankCell]
    """The MinRankCells, in the order decided"""

class OutputError(Error, OSError):
    """An output file that cannot be written (exit code 2)."""

class ResourceError(Error, MemoryError):
    """A run refused up front because it would exceed a size, time or memory limit; the message
    says what it would need (exit code 3)."""

class SearchModel:
    """The model a search found, re-verified exactly on the original task (the CLI's JSON
    'model', its evaluation flattened)."""

    source: str
    """Where the model came from"""
    kernel_rank: int
    """Exact rank of its kernel table (int)"""
    class_check: str
    """The class check, as printed"""
    solves: bool
    """Whether it solves the task (exactly)"""
    method: str
    """Evaluation method ('brute force', ...)"""
    instances: int
    """Instances evaluated (int)"""
    failing: int
    """Failing instances (int)"""
    undefined: int
    """Zero-denominator instances (int)"""
    max_error: Fraction | None
    """Exact max error (Fraction) or None"""
    error_rate: Fraction
    """failing / instances (Fraction)"""
    worst: Instance | None
    """An instance at the max error, or None"""
    failures: list[Instance]
    """The first failing instances"""
    format: str
    """Format of text: 'text' or 'json'"""
    text: str
    """The tabular model file's contents (what out= writes)"""
    features_text: str
    """The model in feature form (what features= writes)"""
    file: str | None
    """Where the tabular model was written, or None"""
    features_file: str | None
    """Where the feature form was written, or None"""

class SearchResult:
    """One search cell (task, r, class) as `kernelrank search` reports it: the verdict, its
    honest label, the model found."""

    task: str
    """The task, described"""
    m: int
    """Token width"""
    n: int
    """Sequence length"""
    r: int
    """Features asked for"""
    model_class: str
    """'NK' or 'PF'"""
    row_instances: int
    """Deduplicated row instances"""
    verdict: str
    """'found', 'refuted' or 'unknown'"""
    label: str
    """The label the CLI prints: 'found and verified', 'refuted (certified)', 'refuted (Z3
    only)', ..."""
    detail: str
    """Why, in a sentence or two"""
    status: str
    """The label as a min-rank cell status: 'refuted-certified', 'refuted-Z3-only', ..."""
    found: bool
    """A model was found and verified exactly"""
    refuted: bool
    """r is refuted (see label: by what)"""
    certified: bool
    """The refutation has a certificate the checker verified"""
    resource_limited: bool
    """Unknown because a time, memory or rlimit budget ran out"""
    solver_status: str
    """How the search process ended"""
    seconds: float
    """Wall-clock seconds"""
    z3_version: str
    """The linked Z3"""
    solver: str
    """'z3', 'cvc5' or 'both'"""
    cvc5_version: str
    """cvc5's version when it ran"""
    order_argument: dict[str, Any] | None
    """The order argument (dict, as the CLI's JSON), or None"""
    bound: int | None
    """A certified rank bound r >= bound, or None"""
    bound_construction: str | None
    """Its code construction, or None"""
    bound_rows: int | None
    """Its rows (int), or None"""
    certificate_rule: str | None
    """Rule of the certificate refuting r, or None"""
    certificate: str | None
    """The checker-verified certificate text refuting r, or None"""
    certificate_path: str | None
    """Where it was written, or None"""
    certificate_message: str
    """The CLI's sentence about the written certificate ('' if none)"""
    z3: list[dict[str, Any]]
    """The SMT attempts (dicts, as the CLI's JSON)"""
    heuristic: dict[str, Any] | None
    """The proposal search (dict: restarts, best_max_error_double, accepted) or None"""
    model: SearchModel | None
    """The SearchModel found, or None"""
    def __bool__(self) -> bool: ...

class TrainResult:
    """What `kernelrank train` wrote to out"""

    out: str
    """The output directory"""
    report_path: str
    """out/report.json"""
    train_family: str
    """The training family"""
    test_family: str | None
    """The test family, or None"""
    models: list[TrainedModel]
    """One TrainedModel per model of the grid"""

class TrainedModel:
    """One trained model of report.json"""

    name: str
    """e.g. 'relu-r8-s1'"""
    feature: str
    """Feature map: relu, square, softmax"""
    r: int
    """Features (int)"""
    seed: int
    """Seed (int)"""
    d: int
    """Value width"""
    positions: int
    """Positions (0: shared maps)"""
    epochs: int
    """Epochs at most"""
    lr: float
    """Learning rate"""
    final_loss: float
    """Final training loss (float)"""
    recipe: dict[str, Any]
    """The recipe record (dict)"""
    files: dict[str, Any]
    """File names in out (dict)"""
    timing: dict[str, Any]
    """Seconds of training and verification"""
    safetensors: str
    """Path of the weights"""
    model: str | None
    """Path of the .model file, or None"""
    train: TrainedSplit
    """The training split (TrainedSplit)"""
    test: TrainedSplit | None
    """The test split (TrainedSplit), or None"""

class TrainedSplit:
    """One split (train or test) of a trained model: the float figures and the decided verdict,
    as report.json records it"""

    instances: int
    """Instances (int)"""
    float_failing: int
    """Failing in floating point (int)"""
    float_error_rate: float
    """float"""
    float_accuracy: float
    """float"""
    method: str
    """How the verdict was decided"""
    verdict: str
    """The decided verdict"""
    solves: bool
    """The verdict says the head solves the split"""
    failing: int
    """Decided failing instances (int)"""
    undefined: int
    """Zero denominators (int)"""
    undecided: int
    """Undecided (softmax; int)"""
    error_rate: Fraction
    """Decided error rate (Fraction)"""
    max_error: Fraction | None
    """Max error (Fraction; softmax: an upper bound), or None"""
    max_error_lo: Fraction | None
    """softmax: the lower end of the max error's enclosure (Fraction), else None"""
    first_failure: dict[str, Any] | None
    """dict instance, target, output (Fraction; softmax: str), or None"""
    disagreements: int
    """Float/decided disagreements (int)"""
    disagreement_list: list[dict[str, Any]]
    """The listed disagreements (dicts, exact outputs as Fraction)"""
    def __bool__(self) -> bool: ...

class TranscriptResult:
    """The transcript bound (theory.md L7), as `kernelrank transcript` reports it."""

    task: str
    """'cube' or 'family'"""
    family: str | None
    """The family file, or None"""
    m: int
    """Token width"""
    n: int
    """Sequence length"""
    contexts: int
    """Contexts (int)"""
    queries: int
    """Queries (int)"""
    answer_vectors: int
    """D (int): exact when exact, else a lower bound"""
    exact: bool
    """Whether answer_vectors is D exactly"""
    method: str | None
    """The cube's count method, or None"""
    cross_checked: bool | None
    """The cube: both counts ran and agree (bool); a family: None"""
    log2: tuple[int, int] | None
    """(floor, ceil) of log2 D, or None"""
    min_bits: int | None
    """Bits a transcript needs at least (int), or None"""
    instances: int | None
    """A family: instances, or None"""
    pairs: int | None
    """A family: distinct (query, context) pairs, or None"""
    grid: bool | None
    """A family: every context meets the same queries (bool), or None"""
    clique: list[list[str]] | None
    """A family: pairwise-conflicting contexts (lists of str), or None"""
    clique_source: str | None
    """How the clique was found (non-grid families), or None"""
    transcripts_upper: int | None
    """A family: an upper bound on D from a colouring (int), or None"""
    independent: IndependentAnswers
    """The independent answers (IndependentAnswers)"""
    seconds: float
    """Wall-clock time, for display"""

class TransitionResult:
    """The phase transition of Min-IP at width m, as `kernelrank transition` reports it."""

    m: int
    """Token width"""
    consistent: bool
    """Every step came out as theory.md predicts (bool)"""
    small_n: list[dict[str, Any]]
    """n = 1 and 2: dicts n, min_rank (1), method, max_error (Fraction, 0), instances (int) of
    the rank1-mean model"""
    lower_bound: int
    """n = 3: the certified lower bound on r (int), the one kernelrank.bound(m) gives, verified
    by the checker's library"""
    lower_source: str
    """The source that gives it ('code', 'order', 'dependence', ...)"""
    lower_detail: str
    """One line about that source's argument"""
    lower_checker_status: str
    """The checker's status line on its certificate ('s VERIFIED')"""
    upper_bound: int
    """n = 3: the best verified layered head's features, else 2**m (int)"""
    product_max_error: Fraction
    """The product realisation's max error on T(m,3) (Fraction)"""
    product_method: str
    """'brute force' or 'profiles of its kernel'"""
    rank1_failure: Instance
    """An instance of T(m,3) that rank 1 fails (Instance)"""
    softmax_base: int | None
    """The smallest integer base for which dense softmax solves T(m,3), or None"""
    softmax_max_error: Fraction | None
    """Its max error (Fraction), or None"""
    certificate: str | None
    """The n = 3 lower bound's certificate text when written, else None"""
    certificate_path: str | None
    """Where it was written, or None"""
    message: str
    """The CLI's sentence about the written certificate ('' if none)"""
    def __bool__(self) -> bool: ...

class UpperResult:
    """The cheapest layered head for T(m,3) the exact layer-set search found, verified by the
    exact evaluator and the checker's library, as `kernelrank upper` reports it: r features
    suffice."""

    m: int
    """Token width"""
    model_class: str
    """'PF' or 'NK'"""
    r: int | None
    """The head's features (int, exact: the checker's r <= N), or None when no layer set was
    found within the LP budget"""
    layers: list[int]
    """The layer set J, increasing from 0 (list of int; [] without a head)"""
    coefficients: list[Fraction]
    """c_j of K(u) = sum_j c_j C(u, j), one per layer (list of Fraction)"""
    max_error: Fraction | None
    """The exact max error over every profile of T(m,3) (Fraction, < 1/2), or None"""
    margin: Fraction | None
    """The LP's optimum t (Fraction; PF normalised K(m) = 1, NK K(0) = 1), or None"""
    optimal: bool
    """Every cheaper layer set was refuted by an exact LP (bool)"""
    verified: bool
    """The head was verified by the exact evaluator and the checker's library (bool; False
    without a head)"""
    lps: int
    """Exact LPs solved (int)"""
    refuted: int
    """Layer sets refuted (int)"""
    file: str | None
    """Where the head was written, or None"""
    seconds: float
    """Wall-clock time, for display"""
    message: str
    """The CLI's sentence about the written head ('' if none)"""
    def __bool__(self) -> bool: ...

class UsageError(Error, ValueError):
    """An impossible or inconsistent parameter (the CLI's exit code 2)."""

class WitnessResult:
    """A witness family, whose solution alone forces the certified bound, and its certificate, as
    `kernelrank witness` reports them."""

    found: bool
    """Whether the family supports a bound (bool)"""
    bound: int | None
    """The certified bound r >= bound (int, the checker's number), or None"""
    rule: str | None
    """'trace', 'shifted-trace' or 'dominance', or None"""
    rows: list[MinRankRow]
    """Rows of the bound (int), or None"""
    steps_supported: int
    """Domination steps the family supports (int)"""
    steps_used: int | None
    """Steps the rows' chains use (int), or None"""
    trace_value: Fraction | None
    """T (or T_W) of the trace rules (Fraction), or None"""
    shift: Fraction | None
    """t of W = t J (shifted trace, Fraction), or None"""
    why_not: list[str]
    """Why there is no bound (list of str)"""
    incomplete_count: int
    """Incomplete patterns in the family (int)"""
    incomplete: list[str]
    """The first incomplete patterns, as the CLI words them (list of str)"""
    checked: bool | None
    """Whether the checker verified the bound's certificate (bool), or None without a bound"""
    checker_status: str | None
    """The checker's status line on the certificate ('s VERIFIED'), or None"""
    m: int
    """Token width of the family"""
    n: int
    """Sequence length"""
    construction: str
    """The code whose chains the family holds ('lexicode m=12 w=6 d=6', ...)"""
    instances: int
    """Instances in the family (int)"""
    code_rows: int
    """Code rows the family holds (int)"""
    rows_left_out: int
    """Code rows left out by max_instances (int)"""
    family: str | None
    """The family file written, or None"""
    certificate_path: str | None
    """Where the certificate was written, or None"""
    family_text: str
    """The family file's text"""
    certificate: str
    """The certificate text (verified by the checker library)"""
    def __int__(self) -> int: ...

def bound(
    m: int,
    *,
    n: int = 3,
    r: int | None = None,
    code: str | os.PathLike[str] | None = None,
    position_dependent: bool = False,
    model_class: str = 'NK',
    mode: str = 'first',
    certificate: str | os.PathLike[str] | None = None,
    seed: int = 1,
    effort: int = 1,
    subset: bool = True,
) -> BoundResult:
    """The best certified lower bound on the feature rank r for T(m,n); returns a BoundResult."""

def certify(
    family: str | os.PathLike[str],
    *,
    certificate: str | os.PathLike[str] | None = None,
    baseline: str | os.PathLike[str] | None = None,
    position_dependent: bool = False,
    incomplete: int = 10,
) -> CertifyResult:
    """The best rank bound a family file supports; returns a CertifyResult."""

def check_certificate(
    path: str | os.PathLike[str],
    family: str | os.PathLike[str] | None = None,
    *,
    threads: int = 0,
) -> CheckResult:
    """Check a certificate with the independent checker's library; returns a CheckResult."""

def construct(
    family: str | os.PathLike[str],
    *,
    out: str | os.PathLike[str] | None = None,
    slope: str | int | Fraction | None = None,
    diagonal: str | int | Fraction | None = None,
) -> ConstructResult:
    """An exact relu head for a family; returns a ConstructResult."""

def counterexample(
    model: str | os.PathLike[str] | Mapping[str, Any] | _SupportsStateDict | None = None,
    *,
    builtin: str | None = None,
    base: str | int | Fraction | None = None,
    activation: str | None = None,
    name: str = '<dict>',
    positions: int | None = None,
    m: int | None = None,
    n: int = 3,
    family: str | os.PathLike[str] | None = None,
    out: str | os.PathLike[str] | None = None,
) -> Counterexample:
    """Find a failing instance for a model, guided by the proof; returns a Counterexample."""

def evaluate(
    model: str | os.PathLike[str] | Mapping[str, Any] | _SupportsStateDict | None = None,
    *,
    builtin: str | None = None,
    base: str | int | Fraction | None = None,
    activation: str | None = None,
    name: str = '<dict>',
    positions: int | None = None,
    layout: str | None = None,
    feature_map: str | None = None,
    precision: int | None = None,
    max_precision: int | None = None,
    m: int | None = None,
    n: int = 3,
    mode: str = 'first',
    family: str | os.PathLike[str] | None = None,
    tokens: str | os.PathLike[str] | None = None,
    threads: int = 0,
    failures: int = 10,
    max_instances: int = 17179869184,
    profiles: bool = False,
    brute_force: bool = False,
    cross_check: bool = False,
    max_profile_work: float = 10000000000.0,
) -> EvalResult | BallResult:
    """Evaluate a model as `kernelrank eval` does; returns an EvalResult, or a BallResult for a
    head with transcendental features (elu1, exp, softmax)."""

def generate_family(
    m: int = 24,
    *,
    n: int = 3,
    mode: str = 'first',
    code: str | os.PathLike[str] | None = None,
    golay: str | None = None,
    weight: int | None = None,
    seed: int = 1,
    train: int = 1000,
    test: int = 1000,
    out: str | os.PathLike[str] | None = None,
    format: str = 'all',
) -> GeneratedSets:
    """Seeded, disjoint train/test instance sets with Min-IP targets; returns GeneratedSets."""

def min_rank(
    m_max: int = 4,
    *,
    model_class: str = 'both',
    rlimit: int = 0,
    timeout: int = 120,
    memory: int = 8192,
    models_dir: str | os.PathLike[str] | None = None,
    save_smt2: str | os.PathLike[str] | None = None,
    r_max: int = 8,
    seed: int = 1,
    restarts: int = 4,
    iterations: int = 20000,
    cross_check_seconds: int = 60,
    heuristic_share: float = 0.5,
    no_cross_check: bool = False,
    verbose: bool = False,
    threads: int = 0,
) -> MinRankResult:
    """The table of minimal feature ranks r(m) for T(m,3), m = 1..m_max; returns a MinRankResult."""

def search(
    m: int | None = None,
    r: int | None = None,
    *,
    n: int = 3,
    model_class: str = 'NK',
    family: str | os.PathLike[str] | None = None,
    mode: str = 'first',
    rlimit: int = 0,
    timeout: int = 60,
    memory: int = 8192,
    out: str | os.PathLike[str] | None = None,
    format: str = 'text',
    features: str | os.PathLike[str] | None = None,
    certificate: str | os.PathLike[str] | None = None,
    save_smt2: str | os.PathLike[str] | None = None,
    solver: str = 'z3',
    seed: int = 1,
    restarts: int = 4,
    iterations: int = 20000,
    max_rounds: int = 400,
    plain: bool = False,
    no_exact: bool = False,
    no_heuristic: bool = False,
    no_z3: bool = False,
    no_lemmas: bool = False,
    no_symmetry: bool = False,
    no_isolate: bool = False,
    cross_check_seconds: int = 60,
    heuristic_share: float = 0.5,
    no_cross_check: bool = False,
    no_certificate: bool = False,
    verbose: bool = False,
) -> SearchResult:
    """Find (exactly verified) or refute a rank-r NK/PF model of T(m,n) or of a family; returns a
    SearchResult."""

def set_progress(enabled: bool) -> None:
    """Turn the progress lines that long runs print on stderr on or off (enabled: a bool; off is
    the CLI's quiet option)."""

def train(
    family: str | os.PathLike[str] | None = None,
    *,
    train: str | os.PathLike[str] | None = None,
    test: str | os.PathLike[str] | None = None,
    out: str | os.PathLike[str] | None = None,
    r: int | Sequence[int] | None = None,
    feature: str | Sequence[str] | None = None,
    seed: int | Sequence[int] | None = None,
    recipe: str | None = None,
    epochs: int | None = None,
    batch: int | None = None,
    bumps: int | None = None,
    lr: float | None = None,
    d: int | None = None,
    position_dependent: bool = False,
    loss: str | None = None,
    band: float | None = None,
    init: str | None = None,
    init_noise: float | None = None,
    constant_features: int | None = None,
    freeze_constant_features: bool | None = None,
    constant_query_bias: float | None = None,
    polish: int | None = None,
    last_step: bool = False,
    temperature: float | None = None,
    epsilon: float | None = None,
    threads: int | None = None,
    disagreements: int | None = None,
) -> TrainResult:
    """Train single heads with libtorch and decide each one exactly; returns a TrainResult."""

def transcript(
    m: int | None = None,
    *,
    n: int | None = None,
    family: str | os.PathLike[str] | None = None,
    method: str = 'auto',
    cross_check: bool = False,
) -> TranscriptResult:
    """The finite-precision transcript bound (theory.md L7); returns a TranscriptResult."""

def transition(
    m: int = 24,
    *,
    certificate: str | os.PathLike[str] | None = None,
) -> TransitionResult:
    """The phase transition of Min-IP at width m; returns a TransitionResult."""

def upper(
    m: int,
    *,
    model_class: str = 'PF',
    out: str | os.PathLike[str] | None = None,
    lp_budget: int = 2000,
) -> UpperResult:
    """The cheapest layered head for T(m,3) by exact LPs; returns an UpperResult."""

def witness(
    m: int = 24,
    *,
    n: int = 3,
    code: str | os.PathLike[str] | None = None,
    golay: str | None = None,
    mode: str = 'first',
    position_dependent: bool = False,
    max_instances: int = 3000,
    out: str | os.PathLike[str] | None = None,
    certificate: str | os.PathLike[str] | None = None,
) -> WitnessResult:
    """A witness family for T(m,n) and its certificate; returns a WitnessResult."""
