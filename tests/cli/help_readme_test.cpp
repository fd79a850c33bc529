// the option table (docs/options.md) and `cumap --help` say the same: the same options,
// with the same defaults. --help is the code's own account (CLI11 prints
// "=VALUE" from the option's variable; defaults left to the backend are in
// its text as "(default: ...)"), so a README row that drifts fails here.
//
// The rules, per option of the map (--help, --version and --list-devices are
// the usage block's, not the table's):
//   --help shows "=X"                   README's default is X
//   its text says "(default: P)"        README's default is P, or the part of
//                                       P after its first ": " ("the backend's
//                                       choice: CUDA 50, ..." -> "CUDA 50, ...")
//   a flag (no value)                   README's default is "off" (or P)
//   neither                             README's default is empty
// Backticks, case and runs of spaces are ignored.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cli_harness.hpp"

namespace cumap::test {
namespace {

struct HelpOption {
  bool flag = true;                   // takes no value
  std::optional<std::string> value;   // "=X" of its type column
  std::optional<std::string> phrase;  // "(... default: P)" of its text
};

std::string normalized(std::string s) {
  s.erase(std::remove(s.begin(), s.end(), '`'), s.end());
  std::string out;
  for (char c : s) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      if (!out.empty() && out.back() != ' ') out += ' ';
    } else {
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

// The "Options:" block of CLI11's help: "  NAMES[ TYPE[:{..}][=X]]  text",
// text continued on lines indented further; long names are the keys.
std::map<std::string, HelpOption> parse_help(const std::string& help) {
  static const std::regex kLine(R"(^  (-\S+)(?: ((?:INT|UINT|FLOAT|TEXT|NUMBER|BOOLEAN)\S*))?(?:\s+(.*))?$)");
  static const std::regex kDefault(R"(\(([^()]*?)default:?\s*([^()]*)\))");
  std::map<std::string, HelpOption> options;
  std::map<std::string, std::string> text;
  std::istringstream in(help);
  bool in_options = false;
  std::vector<std::string> current;
  for (std::string line; std::getline(in, line);) {
    if (line == "Options:") {
      in_options = true;
      continue;
    }
    if (!in_options) continue;
    if (!line.empty() && line[0] != ' ') break;  // "Subcommands:"
    std::smatch m;
    if (line.rfind("  -", 0) == 0 && std::regex_match(line, m, kLine)) {
      current.clear();
      HelpOption o;
      if (m[2].matched) {
        o.flag = false;
        const std::string type = m[2];
        const std::size_t brace = type.rfind('}');
        const std::size_t eq = type.find('=', brace == std::string::npos ? 0 : brace);
        if (eq != std::string::npos) o.value = type.substr(eq + 1);
      }
      std::stringstream names(m[1].str());
      for (std::string name; std::getline(names, name, ',');) {
        name = name.substr(0, name.find('{'));  // "--no-line-correction{false}"
        if (name.rfind("--", 0) != 0) continue;
        options[name] = o;
        text[name] = m[3].matched ? m[3].str() : "";
        current.push_back(name);
      }
    } else {
      for (const std::string& name : current) text[name] += " " + line;
    }
  }
  for (auto& [name, o] : options) {
    std::smatch m;
    if (std::regex_search(text[name], m, kDefault)) o.phrase = m[2].str();
  }
  return options;
}

// The rows of the table under "| option | default | meaning |": every
// option a row's first cell names (in backticks), with the row's default.
std::map<std::string, std::string> parse_readme_table(const std::string& readme) {
  std::map<std::string, std::string> rows;
  std::istringstream in(readme);
  bool in_table = false;
  static const std::regex kName(R"(`(--[a-z0-9-]+))");
  for (std::string line; std::getline(in, line);) {
    if (!in_table) {
      in_table = normalized(line) == "| option | default | meaning |";
      continue;
    }
    if (line.rfind("|", 0) != 0) break;
    // Cells end at a '|' that is not escaped ("auto\|cpu" stays in its cell).
    std::vector<std::string> cells;
    std::string cell;
    for (std::size_t i = 1; i < line.size(); ++i) {
      if (line[i] == '|' && line[i - 1] != '\\') {
        cells.push_back(cell);
        cell.clear();
      } else {
        cell += line[i];
      }
    }
    if (cells.size() < 2 || normalized(cells[0]).find_first_not_of("- ") == std::string::npos) continue;  // | --- |
    for (std::sregex_iterator it(cells[0].begin(), cells[0].end(), kName), end; it != end; ++it)
      rows[(*it)[1].str()] = cells[1];
  }
  return rows;
}

const std::set<std::string> kNotInTable{"--help", "--version", "--list-devices"};

// Every way the two disagree, one message each; empty when they agree.
std::vector<std::string> disagreements(const std::map<std::string, HelpOption>& help,
                                       const std::map<std::string, std::string>& readme) {
  std::vector<std::string> out;
  for (const auto& [name, o] : help) {
    if (kNotInTable.contains(name)) continue;
    const auto row = readme.find(name);
    if (row == readme.end()) {
      out.push_back(name + ": in --help, not in the option table (docs/options.md)");
      continue;
    }
    const std::string d = normalized(row->second);
    std::vector<std::string> allowed;
    if (o.value) {
      allowed.push_back(normalized(*o.value));
    } else {
      if (o.phrase) {
        const std::string p = normalized(*o.phrase);
        allowed.push_back(p);
        if (const std::size_t colon = p.find(": "); colon != std::string::npos) allowed.push_back(p.substr(colon + 2));
      }
      if (o.flag) allowed.push_back("off");
      if (!o.flag && !o.phrase) allowed.push_back("");
    }
    if (std::find(allowed.begin(), allowed.end(), d) == allowed.end()) {
      std::string expected;
      for (const std::string& a : allowed) expected += (expected.empty() ? "'" : " or '") + a + "'";
      out.push_back(name + ": README.md's default is '" + d + "', --help says " + expected);
    }
  }
  for (const auto& [name, d] : readme)
    if (!help.contains(name)) out.push_back(name + ": in the option table (docs/options.md), not in --help");
  return out;
}

std::string joined(const std::vector<std::string>& lines) {
  std::string s;
  for (const std::string& l : lines) s += l + "\n";
  return s;
}

std::string repo_file(const std::string& name) { return read_text(std::string(CUMAP_TEST_DATA_DIR) + "/../../" + name); }
// Every option, as docs/options.md lists them.
std::string readme_text() { return repo_file("docs/options.md"); }
// The README's own table: the options most runs use.
std::string front_page_text() { return repo_file("README.md"); }

std::string help_text(const std::vector<std::string>& args = {"--help"}) {
  TempDir cwd;
  const RunResult r = run_cumap(args, cwd.path());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return r.out;
}

// The table of a subcommand: the first under its heading ("## `cumap barrier`").
std::string section(const std::string& text, const std::string& heading) {
  const std::size_t at = text.find("\n" + heading + "\n");
  EXPECT_NE(at, std::string::npos) << heading << " is not a heading of docs/options.md";
  return at == std::string::npos ? "" : text.substr(at);
}

TEST(HelpReadme, TheOptionTableSaysWhatHelpSays) {
  const auto help = parse_help(help_text());
  const auto readme = parse_readme_table(readme_text());
  // The parsers found the tables at all (an empty pair would agree).
  ASSERT_GE(help.size(), 30u);
  ASSERT_GE(readme.size(), 30u);
  const auto differences = disagreements(help, readme);
  EXPECT_TRUE(differences.empty()) << joined(differences);
}

// `cumap barrier` and `cumap contention` have options of their own, each
// command's table under its heading.
TEST(HelpReadme, TheSyncCommandsTablesSayWhatTheirHelpSays) {
  for (const std::string command : {"barrier", "contention"}) {
    SCOPED_TRACE(command);
    const auto help = parse_help(help_text({command, "--help"}));
    const auto table = parse_readme_table(section(readme_text(), "## `cumap " + command + "`"));
    ASSERT_GE(help.size(), 15u);
    ASSERT_GE(table.size(), 15u);
    const auto differences = disagreements(help, table);
    EXPECT_TRUE(differences.empty()) << joined(differences);
  }
}

// The README lists a few options; each says what --help says.
TEST(HelpReadme, TheReadmesRowsSayWhatHelpSays) {
  const auto help = parse_help(help_text());
  auto rows = parse_readme_table(front_page_text());
  ASSERT_GE(rows.size(), 8u);
  std::vector<std::string> wrong;
  for (const std::string& difference : disagreements(help, rows))
    if (difference.find("not in the option table") == std::string::npos) wrong.push_back(difference);  // a subset is fine
  EXPECT_TRUE(wrong.empty()) << joined(wrong);
}

TEST(HelpReadme, ParsersReadDefaultsFromValuesTextAndFlags) {
  const auto help = parse_help(help_text());
  ASSERT_TRUE(help.contains("--check-pairs"));
  EXPECT_EQ(help.at("--check-pairs").value, "256");
  EXPECT_EQ(help.at("--backend").value, "auto");  // "TEXT:{auto,cpu,cuda,hip}=auto" on a line of its own
  EXPECT_FALSE(help.at("--iters").flag);
  EXPECT_FALSE(help.at("--iters").value);
  ASSERT_TRUE(help.at("--lines-per-class").phrase);
  EXPECT_NE(help.at("--lines-per-class").phrase->find("CPU 1"), std::string::npos);
  EXPECT_TRUE(help.contains("--rotating-count"));  // "--lines-per-class,--rotating-count"
  EXPECT_TRUE(help.at("--flush-cache").flag);
  EXPECT_TRUE(help.at("--no-line-correction").flag);
  EXPECT_TRUE(help.contains("--quiet"));  // "-q,--quiet"
  const auto readme = parse_readme_table(readme_text());
  EXPECT_TRUE(readme.contains("--same-line") && readme.contains("--split-line"));  // two in one row
  EXPECT_EQ(normalized(readme.at("--backend")), "auto");                          // "auto\|cpu..." in the first cell
}

// The check fails where it should: each kind of drift, made on purpose.
TEST(HelpReadme, DeliberateMismatchesAreCaught) {
  const auto help = parse_help(help_text());
  const std::string readme = readme_text();
  const auto edited = [&](const std::string& from, const std::string& to) {
    std::string s = readme;
    const std::size_t at = s.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos) s.replace(at, from.size(), to);
    return disagreements(help, parse_readme_table(s));
  };
  const auto mentions = [](const std::vector<std::string>& found, const std::string& what) {
    return std::any_of(found.begin(), found.end(), [&](const std::string& f) { return f.find(what) != std::string::npos; });
  };
  // A default as the README had it before (64; the code's is 256).
  EXPECT_TRUE(mentions(edited("| `--check-pairs N` | 256 |", "| `--check-pairs N` | 64 |"), "--check-pairs"));
  // A default stated only in --help's text.
  EXPECT_TRUE(mentions(edited("| CUDA 24, AMD 32, CPU 1 |", "| GPU 32, CPU 1 |"), "--lines-per-class"));
  // A flag said to be on.
  EXPECT_TRUE(mentions(edited("| `--ordered` | off |", "| `--ordered` | on |"), "--ordered"));
  // A row lost, and a row for an option that does not exist.
  EXPECT_TRUE(mentions(edited("| `--samples S` | 3 |", "| `--sample S` | 3 |"), "--samples: in --help, not in the option table"));
  EXPECT_TRUE(mentions(edited("| `--samples S` | 3 |", "| `--sample S` | 3 |"), "--sample: in the option table"));
  // And --help drifting instead.
  std::map<std::string, HelpOption> drifted = help;
  drifted["--samples"].value = "7";
  EXPECT_TRUE(mentions(disagreements(drifted, parse_readme_table(readme)), "--samples"));
}

}  // namespace
}  // namespace cumap::test
