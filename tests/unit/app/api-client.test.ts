/** The UI's API client turns a failed response into an ApiError that carries the server's code and field. */
import { describe, expect, it } from "vitest";
import { ApiError, apiErrorOf, errorMessage } from "@/app/_components/api-client";

describe("apiErrorOf", () => {
  it("keeps the code, message and field of an API error body", () => {
    const error = apiErrorOf(409, JSON.stringify({ code: "server.name_taken", message: "taken", field: "name" }), "fallback");
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 409, code: "server.name_taken", message: "taken", field: "name" });
  });

  it("uses the fallback when the JSON body has no message, and the text when it is not JSON", () => {
    expect(apiErrorOf(500, "{}", "Saving failed (500).")).toMatchObject({ code: null, message: "Saving failed (500)." });
    expect(apiErrorOf(502, "Bad Gateway", "x")).toMatchObject({ code: null, message: "Bad Gateway" });
    expect(apiErrorOf(502, "", "502 Bad Gateway").message).toBe("502 Bad Gateway");
  });

  it("errorMessage reads the message of an error body", () => {
    expect(errorMessage(JSON.stringify({ code: "chat.no_model", message: "Choose a model." }))).toBe("Choose a model.");
    expect(errorMessage("not json")).toBe("not json");
  });
});
