//===--- LspFilter.cpp - cuda-clangd's changes to clangd's messages -------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "tools/cuda-clangd/LspFilter.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"
#include <cerrno>
#include <cstdio>
#include <signal.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace llvm;

namespace cuda_tidy {

static bool isCudaTidyCode(const json::Object &Diag) {
  std::optional<StringRef> Code = Diag.getString("code");
  return Code && Code->starts_with("cuda-");
}

/// A request id as a map key ("1", "\"abc\"").
static std::string idKey(const json::Value &Id) {
  std::string Key;
  raw_string_ostream OS(Key);
  OS << Id;
  return Key;
}

void LspFilter::fromClient(json::Value &Message) {
  json::Object *O = Message.getAsObject();
  if (!O || O->getString("method") != "textDocument/codeAction")
    return;
  const json::Value *Id = O->get("id");
  const json::Object *Params = O->getObject("params");
  const json::Object *Context = Params ? Params->getObject("context") : nullptr;
  const json::Array *Diags =
      Context ? Context->getArray("diagnostics") : nullptr;
  if (!Id || !Diags)
    return;
  std::vector<std::string> Messages;
  for (const json::Value &D : *Diags)
    if (const json::Object *DO = D.getAsObject())
      if (isCudaTidyCode(*DO))
        if (std::optional<StringRef> Text = DO->getString("message"))
          Messages.push_back(Text->str());
  if (Messages.empty())
    return;
  std::lock_guard<std::mutex> Lock(Mutex);
  Pending[idKey(*Id)] = std::move(Messages);
}

/// clangd appends " (fix available)" to a message that has a fix; a fix's
/// title is the bare message.
static StringRef bareMessage(StringRef Text) {
  Text.consume_back(" (fix available)");
  return Text;
}

void LspFilter::fromServer(json::Value &Message) {
  json::Object *O = Message.getAsObject();
  if (!O)
    return;
  if (O->getString("method") == "textDocument/publishDiagnostics") {
    json::Object *Params = O->getObject("params");
    json::Array *Diags = Params ? Params->getArray("diagnostics") : nullptr;
    if (!Diags || DocsBaseUrl.empty())
      return;
    for (json::Value &D : *Diags)
      if (json::Object *DO = D.getAsObject())
        if (isCudaTidyCode(*DO))
          (*DO)["codeDescription"] = json::Object{
              {"href", DocsBaseUrl + DO->getString("code")->str() + ".md"}};
    return;
  }
  const json::Value *Id = O->get("id");
  if (!Id || O->get("method"))
    return;
  std::vector<std::string> Messages;
  {
    std::lock_guard<std::mutex> Lock(Mutex);
    auto It = Pending.find(idKey(*Id));
    if (It == Pending.end())
      return;
    Messages = std::move(It->second);
    Pending.erase(It);
  }
  json::Array *Actions = O->getArray("result");
  if (!Actions)
    return;
  for (json::Value &A : *Actions) {
    json::Object *AO = A.getAsObject();
    if (!AO || AO->getString("kind") != "quickfix")
      continue;
    std::optional<StringRef> Title = AO->getString("title");
    if (!Title)
      continue;
    bool Proven = llvm::any_of(Messages, [&](const std::string &M) {
      return bareMessage(M) == *Title;
    });
    if (Proven)
      continue;
    (*AO)["title"] = Title->str() + ReviewLabel;
    AO->erase("isPreferred");
  }
}

namespace {
/// Reads and writes LSP frames (headers, a blank line, Content-Length bytes).
class FrameReader {
public:
  explicit FrameReader(int Fd) : Fd(Fd) {}

  /// The next message's body, or std::nullopt at the end of the stream.
  std::optional<std::string> next() {
    size_t Length = 0;
    bool HaveLength = false;
    while (true) {
      std::optional<std::string> Line = readLine();
      if (!Line)
        return std::nullopt;
      StringRef L = StringRef(*Line).rtrim("\r\n");
      if (L.empty()) {
        if (HaveLength)
          break;
        continue;
      }
      if (L.consume_front_insensitive("content-length:"))
        HaveLength = !L.trim().getAsInteger(10, Length);
    }
    std::string Body;
    while (Body.size() < Length) {
      if (!fill())
        return std::nullopt;
      size_t Take = std::min(Length - Body.size(), Buffer.size());
      Body.append(Buffer, 0, Take);
      Buffer.erase(0, Take);
    }
    return Body;
  }

private:
  int Fd;
  std::string Buffer;

  bool fill() {
    if (!Buffer.empty())
      return true;
    char Chunk[65536];
    while (true) {
      ssize_t N = ::read(Fd, Chunk, sizeof(Chunk));
      if (N < 0 && errno == EINTR)
        continue;
      if (N <= 0)
        return false;
      Buffer.append(Chunk, N);
      return true;
    }
  }
  std::optional<std::string> readLine() {
    while (true) {
      size_t Pos = Buffer.find('\n');
      if (Pos != std::string::npos) {
        std::string Line = Buffer.substr(0, Pos + 1);
        Buffer.erase(0, Pos + 1);
        return Line;
      }
      char Chunk[65536];
      ssize_t N = ::read(Fd, Chunk, sizeof(Chunk));
      if (N < 0 && errno == EINTR)
        continue;
      if (N <= 0)
        return std::nullopt;
      Buffer.append(Chunk, N);
    }
  }
};
} // namespace

static bool writeAll(int Fd, StringRef Data) {
  while (!Data.empty()) {
    ssize_t N = ::write(Fd, Data.data(), Data.size());
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      return false;
    Data = Data.drop_front(N);
  }
  return true;
}

/// Copies frames from In to Out, passing each through Rewrite. A body that
/// is not JSON is copied as it is.
template <typename Fn> static void pump(int In, int Out, Fn Rewrite) {
  FrameReader Reader(In);
  while (std::optional<std::string> Body = Reader.next()) {
    std::string Text = std::move(*Body);
    if (Expected<json::Value> V = json::parse(Text)) {
      Rewrite(*V);
      Text.clear();
      raw_string_ostream OS(Text);
      OS << *V;
    } else {
      consumeError(V.takeError());
    }
    std::string Frame =
        "Content-Length: " + std::to_string(Text.size()) + "\r\n\r\n" + Text;
    if (!writeAll(Out, Frame))
      return;
  }
}

int runFiltered(const std::vector<std::string> &Argv, LspFilter &Filter) {
  int ToChild[2], FromChild[2];
  if (::pipe(ToChild) != 0 || ::pipe(FromChild) != 0) {
    errs() << "cuda-clangd: error: cannot create pipes\n";
    return 1;
  }
  pid_t Pid = ::fork();
  if (Pid < 0) {
    errs() << "cuda-clangd: error: cannot start clangd\n";
    return 1;
  }
  if (Pid == 0) {
    ::dup2(ToChild[0], 0);
    ::dup2(FromChild[1], 1);
    for (int Fd : {ToChild[0], ToChild[1], FromChild[0], FromChild[1]})
      ::close(Fd);
    std::vector<char *> Args;
    for (const std::string &A : Argv)
      Args.push_back(const_cast<char *>(A.c_str()));
    Args.push_back(nullptr);
    ::execv("/proc/self/exe", Args.data());
    ::_exit(127);
  }
  ::close(ToChild[0]);
  ::close(FromChild[1]);
  ::signal(SIGPIPE, SIG_IGN);
  std::thread Up([&] {
    pump(0, ToChild[1], [&](json::Value &V) { Filter.fromClient(V); });
    ::close(ToChild[1]); // The editor is gone: clangd sees the end.
  });
  pump(FromChild[0], 1, [&](json::Value &V) { Filter.fromServer(V); });
  int Status = 0;
  while (::waitpid(Pid, &Status, 0) < 0 && errno == EINTR)
    ;
  // clangd has exited: the editor side may still block in read(); nothing
  // more can be sent, so leave without waiting for it.
  Up.detach();
  if (WIFEXITED(Status))
    return WEXITSTATUS(Status);
  return 1;
}

} // namespace cuda_tidy
