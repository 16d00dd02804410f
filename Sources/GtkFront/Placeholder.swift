import AgentCore
