/* scenario.h - one capacity question: model + workload + hardware + parallel layout.
 *
 * struct scenario holds no heap pointers (ids and text are fixed arrays), so a copy is an
 * assignment: live preview, undo and baseline comparison are copies. Presets are applied
 * by copying: setting model.preset copies the catalog model into s->model, setting
 * hardware.gpu copies the catalog GPU into s->hardware.gpu; fields set afterwards
 * override them.
 *
 * Every field a file or --set may name is described by the field table (scenario_fields),
 * which the loader, the saver, --set, `check`, `diff` and the terminal UI all use.
 */
#ifndef GPUPLAN_SCENARIO_H
#define GPUPLAN_SCENARIO_H

#include <stdbool.h>
#include <stddef.h>

#include "catalog.h"
#include "dtype.h"
#include "error.h"
#include "framework.h"
#include "model.h"
#include "units.h"

#define SCENARIO_VERSION 1

enum workload_kind { WL_TRAIN, WL_FINETUNE, WL_ONLINE, WL_OFFLINE, WL_COUNT };
enum optimizer { OPT_ADAMW, OPT_ADAM8BIT, OPT_SGD, OPT_NONE };
/* RECOMPUTE_OP: PyTorch's per-op selective checkpointing (torchtitan's `op` policy); it
 * stores less than selective and more than full, but comes last to keep the file values.
 * RECOMPUTE_ATTENTION: each layer's attention module checkpointed, its MLP stored
 * (OLMo-core's selected_modules over the blocks' attention; plan_memory.c). */
enum recompute {
	RECOMPUTE_NONE,
	RECOMPUTE_SELECTIVE,
	RECOMPUTE_FULL,
	RECOMPUTE_OP,
	RECOMPUTE_ATTENTION
};
/* workload.recompute_method: which layers full recomputation checkpoints (Megatron
 * --recompute-method): block, each of the first recompute_layers alone (the rest store
 * everything); uniform, chunks of recompute_layers layers, only each chunk's input kept. */
enum recompute_method { RECOMPUTE_BLOCK, RECOMPUTE_UNIFORM };
enum ft_method { FT_FULL, FT_LORA, FT_QLORA };
enum offload { OFFLOAD_NONE, OFFLOAD_OPTIMIZER, OFFLOAD_OPTIMIZER_PARAMS };
/* The kernel family that runs inference (plan_infer.c): llama.cpp-style matrix-vector
 * kernels that convert or dequantise weights on the CUDA cores and launch each layer's
 * kernels from the host (what the time model was first calibrated on), or a CUDA-graph
 * serving engine (vLLM, TensorRT-LLM, SGLang, torch.compile) whose decode step is one
 * captured graph and whose quantised GEMMs dequantise inside the kernel. ENGINE_AUTO (the
 * default) is the framework's, else the GPU's common one: llama.cpp on a consumer card
 * (catalog class consumer), a CUDA-graph engine elsewhere (framework_engine). */
enum engine { ENGINE_LLAMACPP, ENGINE_CUDA_GRAPHS, ENGINE_AUTO, ENGINE_COUNT };

/* workload.precision auto (the default): the plan resolves it (plan.precision,
 * plan_memory.c plan_resolve): bf16 for training (fp16 on GPUs without bf16), and for
 * inference the weights' 16-bit format, or fp8 (W8A8) when the weights are fp8, the GPU
 * has fp8 tensor cores and the engine is a CUDA-graph serving engine. */
#define PRECISION_AUTO DTYPE_COUNT

/* workload.grad_dtype auto (the default): the framework's (framework.h grad_dtype), bf16
 * under the default framework (the ZeRO paper's 2 bytes a parameter). */
#define GRAD_DTYPE_AUTO DTYPE_COUNT
/* parallel.zero: auto, the framework's stage (framework_zero) */
#define ZERO_AUTO (-1)

/* LoRA target matrices, as a bit set. */
enum lora_target {
	LORA_Q = 1 << 0,
	LORA_K = 1 << 1,
	LORA_V = 1 << 2,
	LORA_O = 1 << 3,
	LORA_GATE = 1 << 4,
	LORA_UP = 1 << 5,
	LORA_DOWN = 1 << 6,
};

struct finetune {
	enum ft_method method;
	int rank;
	unsigned targets;	  /* enum lora_target bits */
	enum dtype base_weights;  /* frozen base: bf16/fp16 for LoRA, nf4 for QLoRA */
	enum dtype adapter_dtype; /* adapters: fp32 (PEFT's default) | bf16 (qlora.py) */
	double dropout;		  /* LoRA dropout probability before lora_a; 0 = none */
};

struct slo {
	double ttft_s;	   /* 0 = none */
	double tpot_s;	   /* 0 = none */
	double percentile; /* the percentile the targets hold at, (0, 100); 0 = auto (99) */
};

/* Speculative decoding (workload.speculative): a proposer drafts K tokens, one pass of the
 * target verifies them (Leviathan et al. 2023, arXiv 2211.17192). */
enum spec_method { SPEC_NONE, SPEC_DRAFT, SPEC_MTP, SPEC_EAGLE, SPEC_NGRAM, SPEC_COUNT };

struct speculative {
	enum spec_method method; /* SPEC_NONE: no speculation */
	int tokens;		 /* K, tokens drafted per step; 0 = none */
	double acceptance;	 /* a, the chance each drafted token is accepted, [0, 1) */
	double draft_params;	 /* the draft's parameters; 0 = the method's (one layer) */
	int draft_layers;	 /* the draft model's layers (method draft) */
};

/* A request length's distribution around its mean (workload.prompt_tokens or
 * output_tokens): fixed, or a named law with its parameters (plan_serve.c, serve). */
enum length_dist { DIST_FIXED, DIST_EXPONENTIAL, DIST_UNIFORM, DIST_LOGNORMAL, DIST_COUNT };

struct length_law {
	enum length_dist dist;
	double min, max; /* uniform: its bounds (mean (min + max) / 2) */
	double sigma;	 /* lognormal: the log's standard deviation */
};

struct workload {
	enum workload_kind kind;
	enum dtype precision; /* compute and activation precision; PRECISION_AUTO */
	int seq_len;
	int micro_batch;
	int global_batch; /* sequences per optimizer step; 0 = micro_batch x dp */
	double tokens;	  /* tokens to process (train, finetune, offline); 0 = not given */
	enum optimizer optimizer;
	enum dtype grad_dtype; /* GRAD_DTYPE_AUTO (the framework's) | bf16 | fp16 | fp32 */
	enum recompute recompute;
	int recompute_layers; /* layers of each stage that recompute; 0 (auto) = all of them;
			       * under recompute_method uniform, the layers of a chunk */
	enum recompute_method recompute_method;
	bool flash_attention;
	struct finetune finetune;
	int prompt_tokens;
	int output_tokens;
	int batch;	    /* concurrent sequences; 0 = auto (the most that fit) */
	enum dtype weights; /* inference weight format */
	int expert_weights; /* the routed experts' format: 0 = auto (as weights), else the
			       choice's index (workload_expert_weights gives the dtype) */
	enum dtype kv_cache;
	double requests_per_day;
	double peak_factor;
	struct slo slo;
	double measured_tokens_per_s;		/* per GPU; 0 = model it */
	double deadline_s;			/* 0 = none */
	enum engine engine;			/* inference kernels; ENGINE_AUTO: plan.engine */
	enum framework framework;		/* whose defaults apply (framework.h); FW_DEFAULT */
	enum master_weights master_weights;	/* MASTER_AUTO = the framework's */
	enum optimizer_states optimizer_states; /* STATES_AUTO = the framework's */
	enum loss loss;				/* LOSS_AUTO = the framework's */
	enum compile_mode compile;		/* COMPILE_AUTO = the framework's */
	enum grad_lifetime grad_lifetime;	/* GRADS_AUTO = the framework's */
	bool activation_offload;		/* saved activations to host memory */
	enum fp8_scope fp8_scope;		/* FP8_AUTO = the framework's */
	double gpu_memory_utilization;		/* serving KV budget fraction; 0 = framework's */
	enum scheduler scheduler;		/* SCHED_ALONE: the decode step alone */
	int max_batched_tokens;			/* a step's token budget; 0 = the framework's */
	int max_running;			/* running-request cap; 0 = the framework's */
	int scheduler_steps;			/* decode steps a scheduling runs; 0 = auto */
	double requests_per_s;			/* arrival rate; 0 = requests_per_day x peak */
	int concurrency;			/* closed loop: requests in flight; 0 = open */
	int requests;				/* a finite run's requests; 0 = steady state */
	int prefill_engines, decode_engines;	/* disaggregated: engines a unit; 0 = auto */
	double prefix_cache_hit;    /* prompt tokens served from a prefix cache, [0, 1) */
	double prefix_cache_tokens; /* the distinct prefix tokens the hits come from; 0 = any */
	double host_kv_cache;	    /* host memory for KV blocks, bytes per GPU; 0 = none */
	struct speculative speculative;
	struct length_law prompt_length, output_length;
	/* the embedding and head's format: EMB_AUTO (bf16 where the model's checkpoint kept
	 * them 16-bit, model.quant.embed_16, else as weights), EMB_BF16, EMB_SAME */
	int embedding_weights;
	/* the attention projections' format: EMB_AUTO (bf16 where the checkpoint kept them
	 * 16-bit, model.quant.attn_16, else as weights), EMB_BF16, EMB_SAME */
	int attention_weights;
	int weight_group; /* int4/int8 weights' group size; 0 = auto (128 for int4, a scale
			     per row for int8), -1 = one group per row */
};

enum { EMB_AUTO, EMB_BF16, EMB_SAME };

struct hardware {
	struct gpu gpu; /* a copy of the catalog entry with overrides applied */
	int count;
	double storage_bytes_per_s; /* data loading per node; 0 = not modelled */
	double pue;
	double mtbf_gpu_hours;
};

/* Context parallelism's K/V exchange (parallel.cp_comm): Transformer Engine's cp_comm_type
 * (transformer_engine/pytorch/attention/dot_product_attention/context_parallel.py). */
enum cp_comm {
	CP_COMM_P2P,	    /* ring: each step sends the K/V chunk on, overlapped with attention */
	CP_COMM_ALL_GATHER, /* all-gather K/V before attention, exposed (Llama 3, Section 3.3.2) */
};

struct parallel {
	int tp;
	int pp;
	int dp; /* 0 = auto: count / (tp x pp) */
	int ep;
	int cp;		      /* context-parallel degree: the sequence split over cp GPUs */
	enum cp_comm cp_comm; /* how attention gets the other ranks' keys and values */
	bool ep_overlap;      /* expert all-to-alls hidden behind another micro-batch's compute */
	int virtual_stages;
	int zero; /* 0..3, or ZERO_AUTO (the framework's: framework_zero) */
	bool sequence_parallel;
	enum offload offload;
	enum reshard reshard_after_forward; /* RESHARD_AUTO = the framework's */
	/* communication behind compute; OVERLAP_AUTO = the framework's (framework.h) */
	enum overlap tp_comm_overlap;	   /* TP collectives pipelined with the GEMMs */
	enum overlap overlap_grad_reduce;  /* gradient reduction behind the backward */
	enum overlap overlap_param_gather; /* parameter all-gathers behind compute */
};

struct efficiency { /* 0 = auto (the calibrated model) */
	double mfu;
	double hbm;
	double network;
	double overlap;		/* compute speed while overlapped communication runs, of alone */
	double gemm;		/* fraction of the dense peak a large GEMM reaches */
	double memory_overhead; /* allocator slack: reserved over allocated, less 1 */
};

/* The fields a file gave, one bit per index in scenario_fields[]: a save writes them
 * again even where they equal a preset's or the default value (scenario_yaml.h). */
#define SCENARIO_MAX_FIELDS 256

struct scenario {
	int version;
	char name[128];
	char notes[4096];
	char path[GP_PATH_MAX]; /* the file it was read from; "" for the built-in one, "-" stdin */
	unsigned char written[SCENARIO_MAX_FIELDS / 8]; /* set by the loader */
	struct model model;
	struct workload workload;
	struct hardware hardware;
	struct parallel parallel;
	struct efficiency efficiency;
	/* the calibration profile applied (--profile, src/profile.h) and the knobs it gave,
	 * so that a report can say a knob came from it; "" and zeros without one. Not fields
	 * of the file: a save does not write them */
	char profile[64];
	struct efficiency profile_knobs;
	struct efficiency profile_under; /* the values those knobs replaced (0: none) */
};

/* The defaults every file starts from: no model, no GPU, train in bf16 (see scenario.c). */
void scenario_init(struct scenario *s);

/* The built-in scenario `gpuplan` opens without a file (needs the catalog's presets).
 * Returns 0 or -1. */
int scenario_init_builtin(struct scenario *s, const struct catalog *cat, struct gp_error *err);

/* The field table. */
enum field_type {
	FIELD_INT,     /* int; count suffixes accepted ("32k") but the value must be whole */
	FIELD_NUM,     /* double with a unit */
	FIELD_BOOL,    /* true | false */
	FIELD_ENUM,    /* int holding an index into names */
	FIELD_DTYPE,   /* enum dtype restricted to the names listed */
	FIELD_STR,     /* char[size] */
	FIELD_TARGETS, /* unsigned bit set of LoRA targets: [q, k, v] or "q,k,v" */
};

/* Where a field applies, as bits of (1 << enum workload_kind); 0 = always. */
#define APPLIES_TRAIN	  (1u << WL_TRAIN)
#define APPLIES_FINETUNE  (1u << WL_FINETUNE)
#define APPLIES_ONLINE	  (1u << WL_ONLINE)
#define APPLIES_OFFLINE	  (1u << WL_OFFLINE)
#define APPLIES_TRAINING  (APPLIES_TRAIN | APPLIES_FINETUNE)
#define APPLIES_INFERENCE (APPLIES_ONLINE | APPLIES_OFFLINE)

/* Field flags. */
#define FIELD_PRESET                                                                               \
	(1u << 0) /* gives a whole model or GPU: set before the fields of                          \
		     its section, which override it */
#define FIELD_FILE                                                                                 \
	(1u << 1)		     /* names a file to read (model.hf_config): set with           \
					scenario_field_load, never scenario_field_set */
#define FIELD_STEP_DOUBLES (1u << 2) /* +/- double and halve it (counts, sizes, rates) */
#define FIELD_MAX_OPEN	   (1u << 3) /* max itself is refused: the range is [min, max) */
/* Its pane shows it after the fields without the flag: a whole model's other sources
 * (model.hf_config, model.params), blank under a preset, below the shape a user edits. */
#define FIELD_PANE_LAST (1u << 4)
/* 0 is the field's least value of the same kind (ZeRO stage 0), not a mode or a default
 * in its place (concurrency 0 = open arrivals, sliding_window 0 = all): goal seek starts
 * there. Without it an integer's search starts at 1. */
#define FIELD_LEAST_ZERO (1u << 5)

/* Where a FIELD_STR value is an id: the catalog the terminal UI picks it from. */
enum field_catalog { FIELD_CATALOG_NONE, FIELD_CATALOG_MODELS, FIELD_CATALOG_GPUS };

/* The terminal UI's input pane that shows a field as a row; FIELD_PANE_NONE: none. */
enum field_pane { FIELD_PANE_NONE, FIELD_PANE_MODEL, FIELD_PANE_WORKLOAD, FIELD_PANE_HARDWARE };

/* When a pane shows a field's row, besides its applies bits. */
enum field_shown {
	FIELD_SHOWN_ALWAYS,
	FIELD_SHOWN_MOE,  /* model.moe.experts > 0 */
	FIELD_SHOWN_MLA,  /* model.mla.kv_rank > 0 */
	FIELD_SHOWN_LORA, /* fine-tuning with lora or qlora */
};

/* The kind of the figure an auto value resolves to in struct plan. */
enum field_resolved { FIELD_RESOLVED_NONE, FIELD_RESOLVED_INT, FIELD_RESOLVED_DOUBLE };

struct field {
	const char *key; /* path in the file: "workload.seq_len" */
	enum field_type type;
	enum unit_kind unit;
	double min, max;	  /* inclusive range of the value (SI units) */
	bool auto_ok;		  /* "auto" is accepted and stored as auto_stored */
	int auto_stored;	  /* auto_ok: the value meaning auto (0; parallel.zero ZERO_AUTO) */
	size_t offset;		  /* into struct scenario */
	size_t size;		  /* FIELD_STR: the array's size */
	const char *const *names; /* FIELD_ENUM / FIELD_DTYPE / FIELD_TARGETS: accepted names,
				     NULL-terminated; for FIELD_ENUM the value is the index */
	unsigned applies;	  /* APPLIES_* bits; 0 = every workload */
	unsigned frameworks;	  /* 1 << FW_* of the named frameworks that read it; 0 = all */
	const char *doc;	  /* one line: meaning, unit, default */
	const char *label;	  /* the short label of its row in the terminal UI */
	unsigned flags;		  /* FIELD_PRESET, FIELD_FILE, FIELD_STEP_DOUBLES, FIELD_MAX_OPEN,
				     FIELD_PANE_LAST */
	enum field_catalog catalog;
	enum field_pane pane; /* its rows come in the table's order (FIELD_PANE_LAST last) */
	enum field_shown shown;
	enum field_resolved resolved_kind;
	size_t resolved; /* auto_ok: offset in struct plan of the figure auto resolves to */
};

/* The table, terminated by an entry whose key is NULL. */
extern const struct field scenario_fields[];

/* The routed experts' weight format: workload.expert_weights, or workload.weights under
 * auto (gpt-oss keeps its experts in mxfp4 and the rest in bf16). */
enum dtype workload_expert_weights(const struct workload *w);

/* The model's checkpoint format (s->model.quant, from its quantization_config) made the
 * workload's: weights, expert_weights and weight_group, each unless s->written has it.
 * old is the model it replaces: when that one had a format and the new one has none, the
 * fields go back to their defaults. Called when a preset or config sets the model. */
void scenario_apply_checkpoint(struct scenario *s, const struct model_quant *old);

/* Number of entries in scenario_fields. */
int scenario_field_count(void);

/* The field with this key, or NULL. */
const struct field *scenario_field_find(const char *key);

/* The name of choice v of f: for FIELD_ENUM the name of value v, for FIELD_DTYPE and
 * FIELD_TARGETS the v-th name listed, for FIELD_BOOL "false" (0) or "true" (1). NULL when
 * v is out of range or f has no such names. */
const char *field_choice_name(const struct field *f, int v);

/* The name of value v of the enum field key ("workload.recompute", RECOMPUTE_FULL gives
 * "full"), as files write it; "?" for an unknown key or value. */
const char *scenario_enum_name(const char *key, int v);

/* Whether the terminal UI shows f's row for s: its applies bits and its shown condition. */
bool scenario_field_shown(const struct scenario *s, const struct field *f);

/* The first field of pane after after (the pane's first for NULL), or NULL when there is
 * none: the rows of a pane are its fields in the table's order, those with FIELD_PANE_LAST
 * after the others. The saved file keeps the table's order. */
const struct field *scenario_pane_next(enum field_pane pane, const struct field *after);

/* The field at 1-based row of pane, or NULL when the pane has fewer rows. */
const struct field *scenario_pane_field(enum field_pane pane, int row);

struct plan;

/* What f's auto resolved to in p (the dp, batch or efficiency the plan used); 0 when f has
 * no resolved figure. NaN and negative figures are returned as they are. */
double scenario_field_resolved(const struct field *f, const struct plan *p);

/* Whether the stored value v of f means auto (f->auto_ok and v is f->auto_stored). */
bool scenario_field_is_auto(const struct field *f, double v);

/* The least value of numeric field f that is a value (goal seek starts there): its range's
 * minimum where that is above 0; 0 for an integer flagged FIELD_LEAST_ZERO (ZeRO stage 0),
 * else 1, since most fields' 0 is a mode or a default (concurrency 0 = open arrivals,
 * norms_per_layer 0 = 2); for a real a minimum of 0 is "not given" (no deadline, no SLO),
 * so the least is 1e-9. */
double scenario_field_least(const struct field *f);

/* The known key closest to a misspelt one, for "did you mean"; NULL when none is close.
 * prefix restricts candidates to one section ("workload."), may be NULL. */
const char *scenario_field_suggest(const char *key, const char *prefix);

/* Parses text as the value of field f and stores it in s. Presets are applied: setting
 * model.preset copies the catalog model, hardware.gpu the catalog GPU (cat may be NULL
 * only when no preset is set). Never reads a file: a FIELD_FILE field (model.hf_config)
 * is refused with GP_EINTERNAL; read it with scenario_field_load (scenario_sets.h), which
 * hands the model it read to scenario_field_set_model. On error returns -1 with
 * err->message saying what was expected and err->field set; s is unchanged. */
int scenario_field_set(struct scenario *s, const struct catalog *cat, const struct field *f,
		       const char *text, struct gp_error *err);

/* Sets the FIELD_FILE field f (model.hf_config) to text with m, the model read from that
 * file: m replaces s->model, preset and all. Returns 0, or -1 (s unchanged) when text does
 * not fit the field. */
int scenario_field_set_model(struct scenario *s, const struct field *f, const char *text,
			     const struct model *m, struct gp_error *err);

/* scenario_field_find + scenario_field_set; an unknown key names the closest known one. */
int scenario_set(struct scenario *s, const struct catalog *cat, const char *key, const char *text,
		 struct gp_error *err);

/* Applies a "KEY=VALUE" assignment (--set, :set) through scenario_set. */
int scenario_set_assignment(struct scenario *s, const struct catalog *cat, const char *kv,
			    struct gp_error *err);

/* Splits "KEY = VALUE" into the field KEY names and its value (spaces around '=' dropped;
 * value points into kv). Returns 0, or -1 with the message scenario_set_assignment gives
 * for a text that is no assignment or an unknown key. */
int scenario_assignment_split(const char *kv, const struct field **f, const char **value,
			      struct gp_error *err);

/* Formats the field's value in canonical file form ("7B", "auto", "[q, k, v]", "bf16").
 * Returns buf. */
char *scenario_field_format(const struct scenario *s, const struct field *f, char *buf,
			    size_t size);

/* Whether field f has the same value in a and b. */
bool scenario_field_equal(const struct scenario *a, const struct scenario *b,
			  const struct field *f);

/* Whether the field matters for s's workload kind (for the UI and the saver). */
bool scenario_field_applies(const struct scenario *s, const struct field *f);

/* Where each key of a scenario was read, so that problems found after loading can point at
 * a line and column. Filled by the loader; may be absent (NULL) everywhere it is taken. */
#define SCENARIO_MAX_KEYS 160
struct scenario_source {
	char file[GP_PATH_MAX];
	int nkeys;
	struct {
		char key[64];
		int line, column; /* 1-based */
	} keys[SCENARIO_MAX_KEYS];
};

/* The GPUs of one data replica: tp x pp x ep, and x cp in training (parallel.cp applies to
 * training only; Megatron-Core's world is tp x cp x ep x dp x pp,
 * megatron/core/parallel_state.py initialize_model_parallel). As given, not resolved. */
long long scenario_replica_gpus(const struct scenario *s);

/* Adds a warning to warnings for every field written in s (by its file or a --set) that
 * its workload kind or its named framework does not read (the field table's applies and
 * frameworks bits), and for a kv_cache format the framework or the GPU does not run, each
 * naming both, placed as scenario_validate places problems. */
void scenario_ignored_fields(const struct scenario *s, const struct scenario_source *src,
			     struct gp_problems *warnings);

/* Adds every problem of s to problems: values that cannot be together (tp not dividing
 * heads, tp x pp x ep above the GPU count, kv_heads above heads, ...), a missing model or
 * GPU. Positions come from src when given. */
void scenario_validate(const struct scenario *s, const struct scenario_source *src,
		       struct gp_problems *problems);

#endif
