-- Waits (up to 120 s) for cuda-clangd's clang-tidy diagnostics on the
-- current buffer, writes them to $NVIM_OUT one per line as
-- "DIAG <line>:<col> [<code>] <message>", and quits; "NONE" when none came.
local out = assert(io.open(os.getenv("NVIM_OUT"), "w"))
local function tidy()
  local found = {}
  for _, d in ipairs(vim.diagnostic.get(0)) do
    if d.source == "clang-tidy" then
      table.insert(found, d)
    end
  end
  return found
end
vim.wait(120000, function() return #tidy() > 0 end, 200)
local found = tidy()
if #found == 0 then
  out:write("NONE\n")
end
for _, d in ipairs(found) do
  local code = d.user_data and d.user_data.lsp and d.user_data.lsp.code or ""
  out:write(string.format("DIAG %d:%d [%s] %s\n", d.lnum + 1, d.col + 1, code,
                          d.message))
end
out:close()
vim.cmd("qa!")
