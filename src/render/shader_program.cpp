#include "render/shader_program.h"

#include <glad/gl.h>

#include <fstream>
#include <sstream>

#include <glm/gtc/type_ptr.hpp>

namespace ikpose::render {

namespace {

bool ReadText(const std::filesystem::path& path, std::string* text, std::string* error) {
  std::ifstream in(path);
  if (!in) {
    *error = "cannot read shader " + path.string();
    return false;
  }
  std::stringstream ss;
  ss << in.rdbuf();
  *text = ss.str();
  return true;
}

// The driver's log, cut to its first line so errors stay one line.
std::string FirstLine(const std::string& log) {
  const auto end = log.find('\n');
  return end == std::string::npos ? log : log.substr(0, end);
}

unsigned Compile(GLenum stage, const std::filesystem::path& path, std::string* error) {
  std::string source;
  if (!ReadText(path, &source, error)) return 0;
  const unsigned shader = glCreateShader(stage);
  const char* text = source.c_str();
  glShaderSource(shader, 1, &text, nullptr);
  glCompileShader(shader);
  GLint ok = 0;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    char log[2048] = {};
    glGetShaderInfoLog(shader, sizeof(log), nullptr, log);
    *error = path.filename().string() + ": " + FirstLine(log);
    glDeleteShader(shader);
    return 0;
  }
  return shader;
}

}  // namespace

ShaderProgram::~ShaderProgram() {
  if (program_ != 0) glDeleteProgram(program_);
}

bool ShaderProgram::Load(const std::filesystem::path& vertex_file,
                         const std::filesystem::path& fragment_file, std::string* error,
                         const std::vector<const char*>& feedback_varyings) {
  const unsigned vs = Compile(GL_VERTEX_SHADER, vertex_file, error);
  if (vs == 0) return false;
  const unsigned fs = Compile(GL_FRAGMENT_SHADER, fragment_file, error);
  if (fs == 0) {
    glDeleteShader(vs);
    return false;
  }
  const unsigned program = glCreateProgram();
  glAttachShader(program, vs);
  glAttachShader(program, fs);
  if (!feedback_varyings.empty()) {
    glTransformFeedbackVaryings(program, static_cast<GLsizei>(feedback_varyings.size()),
                                feedback_varyings.data(), GL_INTERLEAVED_ATTRIBS);
  }
  glLinkProgram(program);
  glDeleteShader(vs);
  glDeleteShader(fs);
  GLint ok = 0;
  glGetProgramiv(program, GL_LINK_STATUS, &ok);
  if (!ok) {
    char log[2048] = {};
    glGetProgramInfoLog(program, sizeof(log), nullptr, log);
    *error = vertex_file.filename().string() + " + " + fragment_file.filename().string() + ": " +
             FirstLine(log);
    glDeleteProgram(program);
    return false;
  }
  if (program_ != 0) glDeleteProgram(program_);
  program_ = program;
  return true;
}

void ShaderProgram::Use() const {
  glUseProgram(program_);
}

int ShaderProgram::Uniform(const char* name) const {
  return glGetUniformLocation(program_, name);
}

void ShaderProgram::Set(const char* name, const glm::mat4& value) const {
  glUniformMatrix4fv(Uniform(name), 1, GL_FALSE, glm::value_ptr(value));
}
void ShaderProgram::Set(const char* name, const glm::vec3& value) const {
  glUniform3fv(Uniform(name), 1, glm::value_ptr(value));
}
void ShaderProgram::Set(const char* name, const glm::vec4& value) const {
  glUniform4fv(Uniform(name), 1, glm::value_ptr(value));
}
void ShaderProgram::Set(const char* name, int value) const {
  glUniform1i(Uniform(name), value);
}

}  // namespace ikpose::render
