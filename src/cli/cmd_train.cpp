// `kernelrank train`: train single-head linear-attention models with libtorch, then decide
// exactly what each one does (floating point proposes, the exact evaluator decides). The
// options become app/train_job.hpp's request, which the job checks and runs with this build's
// trainer (train/train.hpp); the report is printed here.
#include "commands.hpp"
#include "report_output.hpp"
#include "train_report.hpp"

#include "kernelrank/app/train_job.hpp"
#include "kernelrank/core/errors.hpp"
#include "kernelrank/train/train.hpp"

#include <memory>

namespace kernelrank::cli {
namespace {

struct TrainArgs {
  TrainRequest request;
  bool freeze = false, no_freeze = false;  // neither: the recipe's choice
};

int run_train(const TrainArgs& args, const GlobalOptions& global) {
  TrainRequest request = args.request;
  if (args.freeze || args.no_freeze) request.freeze_constant_features = args.freeze;
  request.progress = !global.quiet;
  const TrainReport report = run_train_job(request, head_trainer());
  emit(global, train_report_to_json(report), train_report_text(report, train_report_path(request)));
  return kExitOk;
}

}  // namespace

void add_train_command(CLI::App& app, const GlobalOptions& global, Action& action) {
  auto args = std::make_shared<TrainArgs>();
  TrainRequest& q = args->request;
  CLI::App* cmd = app.add_subcommand(
      "train", "Train linear-attention heads (libtorch) and verify every trained model exactly");
  auto* family = cmd->add_option("--family", q.family, "Train and evaluate on this family");
  auto* train = cmd->add_option("--train", q.train, "Training family (as `generate` writes)");
  cmd->add_option("--test", q.test, "Test family, evaluated but not trained on");
  family->excludes(train);
  cmd->add_option("--out", q.out, "Output directory for models and report.json")->required();
  cmd->add_option("--r", q.r, "Feature counts (comma-separated list)")
      ->delimiter(',')
      ->capture_default_str();
  cmd->add_option("--feature", q.feature, "Feature maps: relu, square, softmax (list)")
      ->delimiter(',')
      ->capture_default_str();
  cmd->add_option("--seed", q.seed, "Seeds (list)")->delimiter(',')->capture_default_str();
  cmd->add_option("--recipe", q.recipe,
                  "witness (full batch, fixed bump widths) or ood (random-token pools: scaled "
                  "bumps, minibatches, frozen constants); sets the defaults marked [recipe]")
      ->capture_default_str();
  cmd->add_option("--epochs", q.epochs,
                  "[recipe] Adam steps at most (witness 6000, ood 2000; stops at band loss 0)");
  cmd->add_option("--batch", q.batch,
                  "[recipe] Minibatch size, seeded order per epoch (witness 0 = full, ood 1000)");
  cmd->add_option("--bumps", q.bumps,
                  "[recipe] Bump init shape: witness (fixed widths) or scaled (widths scale with "
                  "m; square bumps for square heads)");
  cmd->add_option("--lr", q.lr, "Initial learning rate (cosine decay to lr/100)")
      ->capture_default_str();
  cmd->add_option("--d", q.d, "Value width d (0: d = m)")->capture_default_str();
  cmd->add_flag("--position-dependent", q.position_dependent, "Separate maps per position");
  cmd->add_option("--loss", q.loss, "band: mean(relu(|y - t| - band)); mse: mean((y - t)^2)")
      ->capture_default_str();
  cmd->add_option("--band", q.band, "Half-width of the zero-loss band of --loss band")
      ->capture_default_str();
  cmd->add_option("--init", q.init,
                  "default, random, query-tokens, instance-tokens, l5 (softmax), model:PATH")
      ->capture_default_str();
  cmd->add_option("--init-noise", q.init_noise,
                  "[recipe] Seeded noise of the data-informed inits, times the random init "
                  "(witness 0.1, ood 0.01)");
  cmd->add_option("--constant-features", q.constant_features,
                  "Features that start constant (relu/square; part of r)")
      ->capture_default_str();
  auto* freeze =
      cmd->add_flag("--freeze-constant-features", args->freeze,
                    "[recipe] Keep the constant features constant (witness no, ood yes)");
  cmd->add_flag("--no-freeze-constant-features", args->no_freeze,
                "Let the constant features train (the ood recipe freezes them)")
      ->excludes(freeze);
  cmd->add_option("--constant-query-bias", q.constant_query_bias,
                  "[recipe] Query bias of the constant features; key bias 1 (witness 1, ood 0.1)");
  cmd->add_option("--polish", q.polish, "LBFGS steps after Adam (0: none)")->capture_default_str();
  cmd->add_flag("--last-step", q.last_step,
                "Return the last step's weights, not the best snapshot");
  cmd->add_option("--temperature", q.temperature, "softmax: fixed temperature (0: learned)")
      ->capture_default_str();
  cmd->add_option("--epsilon", q.epsilon, "Training-only epsilon added to the denominator")
      ->capture_default_str();
  cmd->add_option("--threads", q.threads, "Models trained at once (0: all cores)")
      ->capture_default_str();
  cmd->add_option("--disagreements", q.disagreements, "Float/exact disagreements listed per split")
      ->capture_default_str();
  run_when_selected(cmd, global, action, args, run_train);
}

}  // namespace kernelrank::cli
